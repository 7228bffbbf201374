// SPDX-License-Identifier: GPL-2.0
/*
 * aiccgen server: one thread, non-blocking sockets, any number of
 * connections.  Each connection starts with a session header that selects
 * sink mode (discard everything) or message mode (answer every request, see
 * the protocol description in aiccgen.h).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "aiccgen.h"

/* Stop reading a connection whose responses pile up, resume when drained. */
#define SRV_TXQ_PAUSE	4096
#define SRV_TXQ_RESUME	1024
#define SRV_READS	4	/* reads per event, for fairness */

enum sstate { SS_SESSION, SS_SINK, SS_MSG };

struct sconn {
	int fd;
	unsigned int id;
	enum sstate state;
	uint8_t sess[WIRE_SESSION_LEN];
	unsigned int soff;
	struct txq tx;
	struct rxp rx;
	uint32_t ev;
	bool paused;
	bool dead;		/* closed, freed after the current batch */
	uint64_t rx_bytes;
	uint64_t reqs;
	uint64_t t_open;
	char peer[64];
	struct sconn *prev, *next;
};

struct server {
	struct loop l;
	int lfd;
	bool verbose;
	struct sconn *conns;
	struct sconn *dead;
	unsigned int next_id;
	uint64_t accepted, sink, msg, refused, resets, errors;
	uint64_t rx_bytes, tx_bytes, reqs;
};

enum {
	OPT_DURATION = OPT_MODE_BASE,
	OPT_PORT_FILE,
};

static void server_help(FILE *f)
{
	fprintf(f,
		"usage: %s server [-p PORT] [-B ADDR] [--cc NAME] [--duration SEC]\n"
		"                      [--port-file FILE] [-j] [-v]\n\n"
		"Accepts any number of connections and serves every client mode: sink\n"
		"(bulk), request/response (rpc), bursts with acknowledgments (incast and\n"
		"its patterns).  Runs until SIGINT/SIGTERM or --duration, then prints a\n"
		"summary.\n\n"
		"  -p, --port PORT      listen port (default %d; 0 picks a free port)\n"
		"  -B, --bind ADDR      listen address (default: all, IPv6 and IPv4)\n"
		"  --cc NAME            TCP_CONGESTION on the listener; accepted sockets\n"
		"                       inherit it (a client may override it for its own\n"
		"                       connections with --server-cc)\n"
		"  --duration SEC       exit after SEC seconds\n"
		"  --port-file FILE     write the bound port to FILE once listening\n"
		"  -j, --json           print the summary as one JSON object\n"
		"  -v, --verbose        one line per closed connection on stderr\n"
		"  -h, --help           this help\n", GEN_NAME, GEN_DEFAULT_PORT);
}

static int srv_hdr(void *ctx, const struct wire_msg *m)
{
	struct sconn *c = ctx;
	struct wire_msg d = {
		.seq = m->seq, .kind = MSG_DATA, .len = m->resp_len,
	};

	if (m->kind != MSG_REQ)
		return -EPROTO;
	if ((m->flags & MSG_F_EARLY) && m->resp_len)
		return txq_push(&c->tx, &d);
	return 0;
}

static int srv_done(void *ctx, const struct wire_msg *m)
{
	struct sconn *c = ctx;
	struct wire_msg a = {
		.seq = m->seq, .kind = MSG_ACK,
		.len = (m->flags & MSG_F_EARLY) ? 0 : m->resp_len,
	};

	c->reqs++;
	return txq_push(&c->tx, &a);
}

static const struct rxp_ops srv_ops = { .hdr = srv_hdr, .done = srv_done };

static const char *sstate_name(enum sstate s)
{
	return s == SS_SINK ? "sink" : s == SS_MSG ? "msg" : "handshake";
}

static void sconn_close(struct server *s, struct sconn *c, const char *why)
{
	if (s->verbose) {
		struct tcpinfo_snap ti;

		tcpinfo_get(c->fd, &ti);
		fprintf(stderr,
			"%s: server: conn %u from %s (%s): %s, rx %llu tx %llu bytes, %llu requests, %.3f s; ",
			GEN_NAME, c->id, c->peer, sstate_name(c->state), why,
			(unsigned long long)c->rx_bytes,
			(unsigned long long)c->tx.bytes,
			(unsigned long long)c->reqs,
			ns_to_s(now_ns() - c->t_open));
		tcpinfo_text(stderr, &ti);
		fputc('\n', stderr);
	}
	s->rx_bytes += c->rx_bytes;
	s->tx_bytes += c->tx.bytes;
	s->reqs += c->reqs;
	loop_del(&s->l, c->fd);
	close(c->fd);
	c->fd = -1;
	txq_free(&c->tx);
	if (c->prev)
		c->prev->next = c->next;
	else
		s->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	/* Events of this batch may still point to c: free it later. */
	c->dead = true;
	c->next = s->dead;
	s->dead = c;
}

static void server_reap(struct server *s)
{
	while (s->dead) {
		struct sconn *c = s->dead;

		s->dead = c->next;
		free(c);
	}
}

static void sconn_events(struct server *s, struct sconn *c)
{
	uint32_t ev = 0;

	if (c->paused && c->tx.count < SRV_TXQ_RESUME)
		c->paused = false;
	if (!c->paused)
		ev |= EPOLLIN;
	if (!txq_empty(&c->tx))
		ev |= EPOLLOUT;
	if (ev != c->ev) {
		c->ev = ev;
		loop_mod(&s->l, c->fd, ev, c);
	}
}

/* Returns 0 to keep the connection, -1 after closing it. */
static int sconn_session(struct server *s, struct sconn *c)
{
	struct wire_session ws;
	struct wire_hello h = { .status = HELLO_OK };
	uint8_t hb[WIRE_HELLO_LEN];
	char err[256];
	int r;

	r = wire_get_session(c->sess, &ws);
	if (r == -1) {
		s->refused++;
		sconn_close(s, c, "not an aiccgen client");
		return -1;
	}
	if (r == -2)
		h.status = HELLO_BAD_VERSION;
	else if (ws.mode != WIRE_SINK && ws.mode != WIRE_MSG)
		h.status = HELLO_BAD_MODE;
	else if (ws.cc[0] && sock_set_cc(c->fd, ws.cc, err, sizeof(err)) < 0)
		h.status = HELLO_BAD_CC;
	sock_get_cc(c->fd, h.cc);
	wire_put_hello(hb, &h);
	txq_set_raw(&c->tx, hb, sizeof(hb));
	if (h.status != HELLO_OK) {
		txq_flush(&c->tx, c->fd);
		s->refused++;
		if (s->verbose && h.status == HELLO_BAD_CC)
			gen_err("conn %u: %s", c->id, err);
		sconn_close(s, c, "refused");
		return -1;
	}
	if (ws.mode == WIRE_SINK) {
		c->state = SS_SINK;
		s->sink++;
	} else {
		c->state = SS_MSG;
		s->msg++;
	}
	return 0;
}

/* Send what is queued; a failed write closes the connection. */
static void sconn_output(struct server *s, struct sconn *c)
{
	int e = txq_flush(&c->tx, c->fd);

	if (e < 0) {
		if (e == -ECONNRESET || e == -EPIPE)
			s->resets++;
		else
			s->errors++;
		sconn_close(s, c, strerror(-e));
		return;
	}
	sconn_events(s, c);
}

static void sconn_input(struct server *s, struct sconn *c)
{
	for (int i = 0; i < SRV_READS && !c->paused; i++) {
		size_t want = GEN_IOBUF;
		uint8_t *buf = gen_scratch;
		ssize_t r;

		if (c->state == SS_SESSION) {
			buf = c->sess + c->soff;
			want = WIRE_SESSION_LEN - c->soff;
		}
		r = read_some(c->fd, buf, want);
		if (r == 0) {
			sconn_close(s, c, "closed by peer");
			return;
		}
		if (r < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			if (errno == ECONNRESET)
				s->resets++;
			else
				s->errors++;
			sconn_close(s, c, strerror(errno));
			return;
		}
		c->rx_bytes += r;
		if (c->state == SS_SESSION) {
			c->soff += r;
			if (c->soff == WIRE_SESSION_LEN &&
			    sconn_session(s, c) < 0)
				return;
		} else if (c->state == SS_MSG) {
			int e = rxp_feed(&c->rx, buf, r, &srv_ops, c);

			if (e) {
				s->errors++;
				sconn_close(s, c, e == -EPROTO ?
					    "protocol error" : strerror(-e));
				return;
			}
			if (c->tx.count >= SRV_TXQ_PAUSE)
				c->paused = true;
		}
		if ((size_t)r < want)
			break;
	}
	if (!txq_empty(&c->tx))
		sconn_output(s, c);
	else
		sconn_events(s, c);
}

static void server_accept(struct server *s)
{
	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		struct sconn *c;
		char host[INET6_ADDRSTRLEN], serv[8];
		int one = 1;
		int fd = accept4(s->lfd, (struct sockaddr *)&ss, &len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK ||
			    errno == EINTR || errno == ECONNABORTED)
				return;
			gen_err("accept: %s", strerror(errno));
			s->errors++;
			/* Out of descriptors: back off instead of spinning. */
			usleep(10000);
			return;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			close(fd);
			s->errors++;
			continue;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		c->fd = fd;
		c->id = s->next_id++;
		c->state = SS_SESSION;
		c->t_open = now_ns();
		c->ev = EPOLLIN;
		if (getnameinfo((struct sockaddr *)&ss, len, host, sizeof(host),
				serv, sizeof(serv),
				NI_NUMERICHOST | NI_NUMERICSERV) == 0)
			snprintf(c->peer, sizeof(c->peer), "%s port %s", host,
				 serv);
		if (loop_add(&s->l, fd, EPOLLIN, c) < 0) {
			close(fd);
			free(c);
			s->errors++;
			continue;
		}
		c->next = s->conns;
		if (s->conns)
			s->conns->prev = c;
		s->conns = c;
		s->accepted++;
	}
}

/* -B ADDR must be a numeric address: a usage error (exit 2) if not. */
static const char *parse_bind(const char *s)
{
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICHOST,
	};
	struct addrinfo *res = NULL;
	int e = getaddrinfo(s, NULL, &hints, &res);

	if (e)
		gen_usage_err("-B: invalid address '%s': %s", s,
			      gai_strerror(e));
	freeaddrinfo(res);
	return s;
}

static int server_listen(const char *bind_addr, int port, const char *cc)
{
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV | AI_NUMERICHOST,
	};
	struct addrinfo *res = NULL;
	struct sockaddr_in6 a6 = {
		.sin6_family = AF_INET6, .sin6_port = htons(port),
		.sin6_addr = IN6ADDR_ANY_INIT,
	};
	struct sockaddr_in a4 = {
		.sin_family = AF_INET, .sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	const struct sockaddr *sa;
	socklen_t salen;
	char ps[16], err[256];
	int fd = -1, one = 1, zero = 0, e;

	if (bind_addr) {
		snprintf(ps, sizeof(ps), "%d", port);
		e = getaddrinfo(bind_addr, ps, &hints, &res);
		if (e) {
			gen_err("-B: invalid address '%s': %s", bind_addr,
				gai_strerror(e));
			return -1;
		}
		sa = res->ai_addr;
		salen = res->ai_addrlen;
		fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	} else {
		/* Dual stack when IPv6 exists, plain IPv4 otherwise. */
		sa = (struct sockaddr *)&a6;
		salen = sizeof(a6);
		fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 &&
		    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero,
			       sizeof(zero)) < 0) {
			close(fd);
			fd = -1;
		}
		if (fd < 0) {
			sa = (struct sockaddr *)&a4;
			salen = sizeof(a4);
			fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		}
	}
	if (fd < 0) {
		gen_err("socket: %s", strerror(errno));
		goto fail;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (cc && sock_set_cc(fd, cc, err, sizeof(err)) < 0) {
		gen_err("--cc: %s", err);
		goto fail;
	}
	if (bind(fd, sa, salen) < 0) {
		gen_err("bind to %s port %d: %s", bind_addr ? bind_addr : "*",
			port, strerror(errno));
		goto fail;
	}
	if (listen(fd, 4096) < 0 || set_nonblock(fd) < 0) {
		gen_err("listen: %s", strerror(errno));
		goto fail;
	}
	if (res)
		freeaddrinfo(res);
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	if (res)
		freeaddrinfo(res);
	return -1;
}

static int bound_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return -1;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

/*
 * The port into PATH.tmp.PID, created anew (never through something
 * already there: a symlink planted next to a port file in /tmp), then
 * renamed over PATH; on failure the temporary file goes.
 */
static int write_port_file(const char *path, int port)
{
	char tmp[4096], buf[16];
	int fd, len, e = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >=
	    (int)sizeof(tmp)) {
		gen_err("--port-file: path too long");
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		gen_err("--port-file %s: %s", path, strerror(errno));
		return -1;
	}
	len = snprintf(buf, sizeof(buf), "%d\n", port);
	errno = 0;
	if (write(fd, buf, len) != len)
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	if (!e && rename(tmp, path) < 0)
		e = errno;
	if (e) {
		unlink(tmp);
		gen_err("--port-file %s: %s", path, strerror(e));
		return -1;
	}
	return 0;
}

int cmd_server(int argc, char **argv)
{
	static const struct option lo[] = {
		GEN_LO_ARG("port", 'p'),
		GEN_LO_ARG("bind", 'B'),
		GEN_LO_ARG("cc", OPT_CC),
		GEN_LO_ARG("duration", OPT_DURATION),
		GEN_LO_ARG("port-file", OPT_PORT_FILE),
		GEN_LO_FLAG("json", 'j'),
		GEN_LO_FLAG("verbose", 'v'),
		GEN_LO_FLAG("help", 'h'),
		{ NULL, 0, NULL, 0 },
	};
	struct server s = { .lfd = -1 };
	struct epoll_event ev[128];
	const char *bind_addr = NULL, *cc = NULL, *port_file = NULL;
	double duration = 0;
	bool json = gen_json_global;
	int port = GEN_DEFAULT_PORT, opt, ret = 0;
	uint64_t t0, deadline = 0;
	char lcc[GEN_CC_LEN];
	struct jw w;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":p:B:jvh", lo, NULL)) != -1) {
		switch (opt) {
		case 'p':
			port = parse_uint("-p", optarg, 0, 65535);
			break;
		case 'B':
			bind_addr = parse_bind(optarg);
			break;
		case OPT_CC:
			cc = parse_cc("--cc", optarg);
			break;
		case OPT_DURATION:
			duration = parse_double("--duration", optarg, 0.001,
						31536000);
			break;
		case OPT_PORT_FILE:
			if (!*optarg)
				gen_usage_err("--port-file: empty file name");
			port_file = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'v':
			s.verbose = true;
			break;
		case 'h':
			server_help(stdout);
			return 0;
		default:
			gen_bad_opt(opt, argv, lo);
		}
	}
	gen_no_operands(argc, argv);

	s.lfd = server_listen(bind_addr, port, cc);
	if (s.lfd < 0)
		return GEN_EXIT_RUN;
	port = bound_port(s.lfd);
	sock_get_cc(s.lfd, lcc);
	if (loop_init(&s.l) < 0 || loop_add(&s.l, s.lfd, EPOLLIN, NULL) < 0) {
		gen_err("epoll: %s", strerror(errno));
		return GEN_EXIT_RUN;
	}
	if (port_file && write_port_file(port_file, port) < 0)
		return GEN_EXIT_RUN;
	if (!json) {
		printf("%s server: listening on %s port %d, cc %s\n", GEN_NAME,
		       bind_addr ? bind_addr : "*", port, lcc);
		gen_flush(stdout);
	}
	t0 = now_ns();
	if (duration > 0) {
		deadline = t0 + (uint64_t)(duration * 1e9);
		loop_arm(&s.l, deadline);
	}

	while (!gen_stop) {
		int n = loop_wait(&s.l, ev, 128);

		if (n < 0) {
			gen_err("epoll_wait: %s", strerror(errno));
			ret = GEN_EXIT_RUN;
			break;
		}
		if (deadline && now_ns() >= deadline)
			break;
		for (int i = 0; i < n; i++) {
			struct sconn *c = ev[i].data.ptr;
			uint32_t e = ev[i].events;

			if (c == LOOP_TIMER)
				continue;
			if (!c) {
				server_accept(&s);
				continue;
			}
			if (c->dead)
				continue;
			if (e & EPOLLOUT)
				sconn_output(&s, c);
			if (c->dead)
				continue;
			if (e & (EPOLLIN | EPOLLHUP | EPOLLERR))
				sconn_input(&s, c);
		}
		server_reap(&s);
	}

	while (s.conns)
		sconn_close(&s, s.conns, "server exiting");
	server_reap(&s);
	close(s.lfd);
	loop_free(&s.l);

	if (json) {
		jw_init(&w, stdout);
		jw_obj(&w, NULL);
		jw_str(&w, "mode", "server");
		jw_int(&w, "port", port);
		jw_str(&w, "cc", lcc);
		jw_num(&w, "duration_s", ns_to_s(now_ns() - t0));
		jw_uint(&w, "connections", s.accepted);
		jw_uint(&w, "sink_connections", s.sink);
		jw_uint(&w, "msg_connections", s.msg);
		jw_uint(&w, "refused", s.refused);
		jw_uint(&w, "resets", s.resets);
		jw_uint(&w, "errors", s.errors);
		jw_uint(&w, "rx_bytes", s.rx_bytes);
		jw_uint(&w, "tx_bytes", s.tx_bytes);
		jw_uint(&w, "requests", s.reqs);
		jw_obj_end(&w);
		jw_end(&w);
	} else {
		printf("%s server: %llu connections (sink %llu, msg %llu, refused %llu), ",
		       GEN_NAME, (unsigned long long)s.accepted,
		       (unsigned long long)s.sink, (unsigned long long)s.msg,
		       (unsigned long long)s.refused);
		printf("rx %llu bytes, tx %llu bytes, %llu requests, %llu resets, %llu errors\n",
		       (unsigned long long)s.rx_bytes,
		       (unsigned long long)s.tx_bytes,
		       (unsigned long long)s.reqs,
		       (unsigned long long)s.resets,
		       (unsigned long long)s.errors);
	}
	return ret;
}
