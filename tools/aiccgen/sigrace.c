// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper of tools/aiccgen/test.sh, loaded with LD_PRELOAD: the
 * process raises SIGTERM at its AICCGEN_SIGRACE_AT'th call of epoll_wait()
 * (default 1), before the call waits.  That is a signal arriving after the
 * caller last looked at gen_stop and before it sleeps, made certain: an
 * event loop that only learns of signals from that flag sleeps on until
 * something else wakes it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>

int epoll_wait(int ep, struct epoll_event *ev, int max, int timeout)
{
	static int (*real)(int ep, struct epoll_event *ev, int max,
			   int timeout);
	static long calls;
	const char *at = getenv("AICCGEN_SIGRACE_AT");

	if (!real)
		real = (int (*)(int, struct epoll_event *, int, int))
		       dlsym(RTLD_NEXT, "epoll_wait");
	if (++calls == (at ? atol(at) : 1))
		raise(SIGTERM);
	return real(ep, ev, max, timeout);
}
