/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aiccgen: traffic generator replaying AI-cluster patterns over TCP.
 *
 * Shared declarations: wire protocol, socket helpers, event loop, output
 * helpers and the entry points of the modes.
 */
#ifndef AICCGEN_H
#define AICCGEN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define GEN_NAME		"aiccgen"
#define GEN_DEFAULT_PORT	5999
#define GEN_MAX_CONNS		1024
#define GEN_MAX_HOSTS		64
#define GEN_CC_LEN		16	/* TCP_CA_NAME_MAX */
#define GEN_IOBUF		(256 * 1024)
/*
 * At most this much goes into one connection's socket before the others of
 * a multi-connection client get their turn: a burst starts on all of them
 * together, and a fast receiver cannot keep the client in one send loop
 * past its deadlines and signals.
 */
#define GEN_SLICE	(64 * 1024)

/* Exit codes. */
#define GEN_EXIT_RUN		1	/* run failed: connection, timeout */
#define GEN_EXIT_USAGE		2	/* bad command line */

/*
 * Wire protocol, all integers in network byte order.
 *
 * A client opens a connection and sends a 32-byte session header saying what
 * it wants (sink or messages) and, optionally, which congestion control the
 * server should use for its side of this connection.  The server answers
 * with a 32-byte hello carrying a status and the congestion control in use
 * on its side.  Then:
 *
 *  - sink: the client streams bytes, the server discards them until EOF;
 *  - messages: both directions carry messages, each a 24-byte header
 *    followed by "len" payload bytes.  The client sends REQ; the server
 *    answers every REQ with an ACK carrying resp_len payload bytes once the
 *    whole REQ has arrived, or, with MSG_F_EARLY, with a DATA message of
 *    resp_len bytes as soon as the REQ header arrives (so both directions
 *    are busy at once) followed by an empty ACK once the REQ is complete.
 */
#define WIRE_MAGIC		0x41494347u	/* "AICG" session, hello */
#define WIRE_MSG_MAGIC		0x41494d47u	/* "AIMG" messages */
#define WIRE_VERSION		1
#define WIRE_SESSION_LEN	32
#define WIRE_HELLO_LEN		32
#define WIRE_MSG_LEN		24

enum wire_mode { WIRE_SINK = 1, WIRE_MSG = 2 };
enum wire_kind { MSG_REQ = 1, MSG_DATA = 2, MSG_ACK = 3 };
#define MSG_F_EARLY		0x1

enum wire_status {
	HELLO_OK = 0,
	HELLO_BAD_VERSION = 1,
	HELLO_BAD_MODE = 2,
	HELLO_BAD_CC = 3,
};

struct wire_session {
	uint8_t mode;
	uint32_t conn_id;
	char cc[GEN_CC_LEN];		/* empty: keep the server's default */
};

struct wire_hello {
	uint8_t status;
	char cc[GEN_CC_LEN];
};

struct wire_msg {
	uint32_t seq;
	uint16_t kind;
	uint16_t flags;
	uint32_t resp_len;
	uint64_t len;
};

void wire_put_session(uint8_t *b, const struct wire_session *s);
int wire_get_session(const uint8_t *b, struct wire_session *s);
void wire_put_hello(uint8_t *b, const struct wire_hello *h);
int wire_get_hello(const uint8_t *b, struct wire_hello *h);
void wire_put_msg(uint8_t *b, const struct wire_msg *m);
int wire_get_msg(const uint8_t *b, struct wire_msg *m);

/* Outgoing byte stream: an optional raw prefix, then queued messages. */
struct txq_item {
	uint8_t hdr[WIRE_MSG_LEN];
	uint64_t len;
};

struct txq {
	uint8_t raw[WIRE_SESSION_LEN];
	unsigned int raw_len, raw_off;
	struct txq_item *items;
	unsigned int cap, head, count;
	unsigned int hoff;		/* header bytes of items[head] sent */
	uint64_t poff;			/* payload bytes of items[head] sent */
	uint64_t bytes;			/* total bytes written */
};

int txq_push(struct txq *q, const struct wire_msg *m);
void txq_set_raw(struct txq *q, const uint8_t *b, unsigned int len);
bool txq_empty(const struct txq *q);
int txq_flush(struct txq *q, int fd);
ssize_t txq_flush_limit(struct txq *q, int fd, size_t limit);
void txq_free(struct txq *q);

/* Incoming message stream parser. */
struct rxp_ops {
	int (*hdr)(void *ctx, const struct wire_msg *m);
	int (*done)(void *ctx, const struct wire_msg *m);
};

struct rxp {
	uint8_t hb[WIRE_MSG_LEN];
	unsigned int hoff;
	bool in_payload;
	uint64_t left;
	struct wire_msg cur;
	uint64_t bytes;
};

int rxp_feed(struct rxp *p, const uint8_t *buf, size_t n,
	     const struct rxp_ops *ops, void *ctx);

/* Zeroed I/O buffer shared by all senders, scratch buffer for receivers. */
extern uint8_t gen_zero[GEN_IOBUF];
extern uint8_t gen_scratch[GEN_IOBUF];

/* Time. */
uint64_t now_ns(void);
static inline double ns_to_s(uint64_t ns) { return ns / 1e9; }
static inline double ns_to_us(uint64_t ns) { return ns / 1e3; }
uint64_t ns_after(uint64_t now, double secs);	/* saturating now + secs */

/*
 * Signals: gen_stop is set by SIGINT/SIGTERM, and gen_stop_fd becomes
 * readable then (for good); gen_signals() installs the handlers.
 */
extern volatile sig_atomic_t gen_stop;
extern int gen_stop_fd;
void gen_signals(void);

/* Messages.  gen_mode is the current mode name, used as a prefix. */
extern const char *gen_mode;
extern bool gen_json_global;	/* -j given before the mode */
void gen_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void __attribute__((noreturn, format(printf, 1, 2))) gen_usage_err(const char *fmt, ...);
struct option;
void __attribute__((noreturn)) gen_bad_opt(int opt, char **argv,
					   const struct option *lo);
void gen_no_operands(int argc, char **argv);
/*
 * fflush(f), keeping the reason of stdout's first failure for its check
 * at exit (a write error fails the run: exit 1, one message).
 */
void gen_flush(FILE *f);
extern int gen_stdout_errno;

/* Strict argument parsing; on error these print one line and exit 2. */
uint64_t parse_uint(const char *opt, const char *s, uint64_t min, uint64_t max);
uint64_t parse_size(const char *opt, const char *s, uint64_t min, uint64_t max);
double parse_double(const char *opt, const char *s, double min, double max);
const char *parse_cc(const char *opt, const char *s);

/* Statistics. */
int cmp_u64(const void *a, const void *b);
uint64_t pct_sorted(const uint64_t *v, size_t n, double p);
double jain_index(const double *x, int n);

/* Small deterministic PRNG (xorshift64*). */
uint64_t prng_next(uint64_t *s);
double prng_unit(uint64_t *s);	/* in (0, 1] */

/* Minimal JSON writer. */
struct jw {
	FILE *f;
	int depth;
	bool first[32];
};

void jw_init(struct jw *w, FILE *f);
void jw_obj(struct jw *w, const char *key);
void jw_obj_end(struct jw *w);
void jw_arr(struct jw *w, const char *key);
void jw_arr_end(struct jw *w);
void jw_str(struct jw *w, const char *key, const char *v);
void jw_int(struct jw *w, const char *key, long long v);
void jw_uint(struct jw *w, const char *key, unsigned long long v);
void jw_num(struct jw *w, const char *key, double v);
void jw_bool(struct jw *w, const char *key, bool v);
void jw_null(struct jw *w, const char *key);
void jw_end(struct jw *w);

/* TCP_INFO as laid out by the kernel, read with whatever length it has. */
struct gen_tcpinfo {
	uint8_t state, ca_state, retransmits, probes, backoff, options;
	uint8_t wscale, flags;
	uint32_t rto, ato, snd_mss, rcv_mss;
	uint32_t unacked, sacked, lost, retrans, fackets;
	uint32_t last_data_sent, last_ack_sent, last_data_recv, last_ack_recv;
	uint32_t pmtu, rcv_ssthresh, rtt, rttvar, snd_ssthresh, snd_cwnd;
	uint32_t advmss, reordering, rcv_rtt, rcv_space, total_retrans;
	uint64_t pacing_rate, max_pacing_rate, bytes_acked, bytes_received;
	uint32_t segs_out, segs_in, notsent_bytes, min_rtt;
	uint32_t data_segs_in, data_segs_out;
	uint64_t delivery_rate, busy_time, rwnd_limited, sndbuf_limited;
	uint32_t delivered, delivered_ce;
	uint64_t bytes_sent, bytes_retrans;
	uint32_t dsack_dups, reord_seen, rcv_ooopack, snd_wnd, rcv_wnd;
	uint32_t rehash;
	uint16_t total_rto, total_rto_recoveries;
	uint32_t total_rto_time;
};

struct tcpinfo_snap {
	struct gen_tcpinfo ti;
	unsigned int len;		/* bytes the kernel filled in */
	char cc[GEN_CC_LEN];
	bool valid;
};

#define TI_HAS(s, field) \
	((s)->valid && (s)->len >= offsetof(struct gen_tcpinfo, field) + \
	 sizeof((s)->ti.field))

int tcpinfo_get(int fd, struct tcpinfo_snap *s);
void tcpinfo_json(struct jw *w, const char *key, const struct tcpinfo_snap *s);
void tcpinfo_text(FILE *f, const struct tcpinfo_snap *s);

/* Per-namespace TCP counters from /proc/net/{snmp,netstat}. */
struct netns_counters {
	bool valid;
	uint64_t retrans_segs;		/* Tcp: RetransSegs */
	uint64_t timeouts;		/* TcpExt: TCPTimeouts */
	uint64_t loss_probes;		/* TcpExt: TCPLossProbes */
	uint64_t spurious_rtos;		/* TcpExt: TCPSpuriousRTOs */
	uint64_t undos;			/* TcpExt: TCP*Undo, summed */
	uint64_t sack_recoveries;	/* TcpExt: TCPSackRecovery */
	uint64_t tlp_recoveries;	/* TcpExt: TCPLossProbeRecovery */
};

void netns_counters_read(struct netns_counters *c);
void netns_counters_json(struct jw *w, const struct netns_counters *a,
			 const struct netns_counters *b);
void netns_counters_text(FILE *f, const struct netns_counters *a,
			 const struct netns_counters *b);

/* Sockets. */
int sock_set_cc(int fd, const char *cc, char *err, size_t errlen);
int sock_get_cc(int fd, char *out);
int check_cc(const char *cc);
int set_nonblock(int fd);
ssize_t read_some(int fd, void *buf, size_t n);

/*
 * Event loop: epoll plus one absolute CLOCK_MONOTONIC timer.  A stop signal
 * also wakes loop_wait() (gen_stop_fd is in the set; its events are not
 * returned), so a loop that looks at gen_stop after each wait never sleeps
 * through one.
 */
struct loop {
	int ep;
	int tfd;
};

#define LOOP_TIMER	((void *)1)
#define LOOP_STOP	((void *)2)

int loop_init(struct loop *l);
void loop_free(struct loop *l);
int loop_add(struct loop *l, int fd, uint32_t events, void *ptr);
int loop_mod(struct loop *l, int fd, uint32_t events, void *ptr);
void loop_del(struct loop *l, int fd);
void loop_arm(struct loop *l, uint64_t abs_ns);
int loop_wait(struct loop *l, void *events, int max);

/* Client side: options shared by every client mode and connections. */
struct copts {
	const char *hosts_arg;		/* -c as given: "H1,H2,..." */
	char *hosts_buf;
	const char *hosts[GEN_MAX_HOSTS];
	int nhosts;
	char *netns_buf;
	const char *netns[GEN_MAX_HOSTS];	/* --netns names, or empty */
	int nnetns;
	int port;
	const char *cc;
	const char *server_cc;
	bool json;
	bool verbose;
	double timeout;			/* overall deadline, 0: derived */
	double connect_timeout;
	void (*help)(FILE *f);		/* the mode's -h */
};

enum cstate { CS_CONNECTING, CS_HELLO, CS_READY, CS_CLOSED, CS_FAILED };

struct cconn {
	int id;
	int fd;
	const char *host;
	const char *netns;		/* created in this namespace, or NULL */
	enum cstate state;
	char err[192];
	char cc[GEN_CC_LEN];
	char server_cc[GEN_CC_LEN];
	uint8_t hello[WIRE_HELLO_LEN];
	unsigned int hello_off;
	struct txq tx;
	struct rxp rx;
	struct tcpinfo_snap ti;
	uint32_t ev;			/* events registered in the loop */
};

/* Long options shared by every client mode. */
enum {
	OPT_CC = 256,
	OPT_SERVER_CC,
	OPT_TIMEOUT,
	OPT_CONNECT_TIMEOUT,
	OPT_NETNS,
	OPT_MODE_BASE = 300,
};

#define COPTS_SHORTOPTS "c:p:jvh"

/* Rows of a struct option table: an option with an argument, a flag. */
#define GEN_LO_ARG(name, val)	{ name, required_argument, NULL, val }
#define GEN_LO_FLAG(name, val)	{ name, no_argument, NULL, val }

/*
 * A client mode's options.  copts_start() sets o to the defaults, resets
 * getopt and returns the common long options followed by the mode's own
 * (NULL-terminated).  copts_next() takes in the common options, prints
 * help and exits on -h, rejects unknown options and missing arguments, and
 * returns the next option of the mode's own; at the end it rejects
 * operands, checks the common options and returns -1.  mode_short is the
 * mode's own short options.
 */
struct option *copts_start(struct copts *o, const struct option *mode,
			   void (*help)(FILE *f));
int copts_next(struct copts *o, int argc, char **argv, const char *mode_short,
	       const struct option *lo);
void copts_help(FILE *f);
/* A report's "hosts": every -c host, in order. */
void copts_hosts_json(struct jw *w, const struct copts *o);

/*
 * Connect n clients to the hosts in turn, each with its session header,
 * within --connect-timeout and before the run's deadline (absolute);
 * returns how many are ready, -1 if none could even start.
 */
int clients_open(struct loop *l, struct cconn *c, int n,
		 const struct copts *o, int wire_mode, uint64_t run_deadline);
void cconn_fail(struct loop *l, struct cconn *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void cconn_close(struct loop *l, struct cconn *c);
int cconn_set_events(struct loop *l, struct cconn *c, uint32_t ev);
void cconn_json(struct jw *w, const struct cconn *c);
void cconn_text(FILE *f, const struct cconn *c);

/*
 * A message-mode client run (incast, rpc): n connections, the event loop,
 * the first error, and what to do with the messages that arrive (ops,
 * called with ctx; cur is the index of the connection being read).
 */
#define MC_READS	4	/* reads per connection and wake-up */

struct mclient {
	struct loop l;
	struct cconn *c;
	int n;
	int cur;
	const struct rxp_ops *ops;
	void *ctx;
	char error[256];
};

/*
 * Open all n connections before run_deadline: the run needs every one.
 * -1: none left open.
 */
int mc_open(struct mclient *m, const struct copts *o, uint64_t run_deadline);
/* Record the run's first error; later ones are dropped. */
void mc_fail(struct mclient *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Close a connection after a failed send/receive (err 0: EOF) and fail. */
void mc_conn_fail(struct mclient *m, struct cconn *c, const char *what,
		  int err);
/* Watch for output while the connection has queued bytes. */
void mc_events(struct mclient *m, struct cconn *c);
/* Wait until min(wake, deadline) or I/O and handle it; -1: epoll failed. */
int mc_poll(struct mclient *m, uint64_t wake, uint64_t deadline);
/* Close every connection; print the error and return -1 if there was one. */
int mc_close(struct mclient *m);
/*
 * The end of a run's report: the connections, the namespace's counters and
 * the error, as text on stdout (w NULL) or closing the JSON object in w.
 */
void mc_report_end(const struct mclient *m, struct jw *w,
		   const struct netns_counters *na,
		   const struct netns_counters *nb);

/* Mode entry points. */
int cmd_server(int argc, char **argv);
int cmd_bulk(int argc, char **argv);
int cmd_incast(int argc, char **argv);
int cmd_rpc(int argc, char **argv);

#endif /* AICCGEN_H */
