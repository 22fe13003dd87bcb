/*
 * cairn-thin: the thin side of a command a running `cairn agent` takes, as a native program: a
 * JVM's start (~0.1-0.2 s and as much CPU on a loaded two-core host) was most of a handed-off
 * command's cost on the client side (docs/benchmarks/journal.md, "A native thin client"). It speaks the
 * same wire as org.cairn.cli.agent.wire.AgentClient (AgentRequest out; OUT / ERR / EXIT frames back,
 * AgentWire) and behaves the same; whatever it cannot do exactly as the JVM would, it hands to the
 * JVM's thin path by exec'ing it, so the result never depends on which client ran:
 *   - no agent answers at SOCKET (no file, refused, a path too long): exec FALLBACK with
 *     CAIRN_AGENT_ABSENT=1 in its environment, which tries again, prints the one-line notice and runs
 *     the command in its own process (the launcher then starts the JVM it starts without an agent,
 *     not the thin one: C1 alone ran a store's hashing without its intrinsics, 1.7-1.8 x the time);
 *   - an argument or the working directory is not plain ASCII (the JVM decodes them by the
 *     locale, and writes them as modified UTF-8): exec FALLBACK;
 *   - the agent goes away before any byte reached standard output: exec FALLBACK with
 *     CAIRN_AGENT_ABSENT=1 (as the JVM's client runs the command in its own process then); after some output: "cairn: COMMAND
 *     failed: ..." and exit 1.
 * Built by client-cli's package phase when a C compiler is there (`cc`); the launcher uses it
 * when it exists, and CAIRN_THIN_CLIENT=java makes it start the JVM's thin path instead.
 *
 * usage: cairn-thin SOCKET COMMAND N FALLBACK_1 .. FALLBACK_N ARGS...
 *   (FALLBACK: the program and its options that run the JVM's thin path, the launcher passes itself with
 *   CAIRN_THIN_CLIENT=java; ARGS: cairn's arguments)
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

enum { MAGIC = 0x43414754, WIRE_VERSION = 2, MAX_ARGS = 4096, MAX_ENV = 64, MAX_UTF = 65535 };

extern char **environ;
enum { FRAME_OUT = 1, FRAME_ERR = 2, FRAME_EXIT = 3, MAX_FRAME = 8 << 20 };

static char **fallback_argv; /* FALLBACK then ARGS, NULL-terminated */
static const char *command;

/* Runs FALLBACK with the same arguments (absent: no agent took the command, so it will run in that process; the
   launcher then starts the JVM for that, not its thin path); never returns. */
static void fall_back_to(int absent) {
  if (absent && setenv("CAIRN_AGENT_ABSENT", "1", 1) != 0) {
    fprintf(stderr, "cairn: cannot set CAIRN_AGENT_ABSENT: %s\n", strerror(errno));
  }
  signal(SIGPIPE, SIG_DFL); /* ignored here (see main); an ignored signal would stay ignored across exec */
  execvp(fallback_argv[0], fallback_argv);
  fprintf(stderr, "cairn: cannot start %s: %s\n", fallback_argv[0], strerror(errno));
  exit(127);
}

/* FALLBACK for what this program cannot send as the JVM would (the agent may be there) */
static void fall_back(void) {
  fall_back_to(0);
}

/* The request as AgentRequest.write lays it out; 0 if a string cannot go as the JVM would send it. */
struct buf {
  unsigned char *p;
  size_t len, cap;
};

static void put(struct buf *b, const void *src, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n) {
      cap *= 2;
    }
    unsigned char *p = realloc(b->p, cap);
    if (p == NULL) {
      fall_back();
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, src, n);
  b->len += n;
}

static void put_int(struct buf *b, uint32_t v) {
  unsigned char x[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8), (unsigned char)v};
  put(b, x, 4);
}

/* DataOutput.writeUTF for a plain ASCII string (where modified UTF-8 is the bytes themselves). */
static int put_ascii(struct buf *b, const char *s) {
  size_t n = strlen(s);
  if (n > MAX_UTF) {
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    if ((unsigned char)s[i] >= 0x80) {
      return 0;
    }
  }
  unsigned char x[2] = {(unsigned char)(n >> 8), (unsigned char)n};
  put(b, x, 2);
  put(b, s, n);
  return 1;
}

/* Whether the variable NAME=... is one a command reads (AgentRequest.forwarded: CAIRN_*, not the hand-over's own). */
static int forwarded(const char *entry) {
  static const char *own[] = {"CAIRN_AGENT_SOCKET=", "CAIRN_AGENT_ABSENT=", "CAIRN_THIN_CLIENT=", "CAIRN_JAVA_OPTS=",
                              "CAIRN_AGENT=", NULL};
  if (strncmp(entry, "CAIRN_", 6) != 0 || strchr(entry, '=') == NULL) {
    return 0;
  }
  for (int i = 0; own[i] != NULL; i++) {
    if (strncmp(entry, own[i], strlen(own[i])) == 0) {
      return 0;
    }
  }
  return 1;
}

/* The forwarded variables as AgentRequest.write lays them out (count, then each name and value; the agent reads them
   into a map, so their order is free); 0: not as the JVM would send them. */
static int put_env(struct buf *b) {
  const char *vars[MAX_ENV];
  int n = 0;
  for (char **e = environ; *e != NULL; e++) {
    if (forwarded(*e)) {
      if (n == MAX_ENV) {
        return 0;
      }
      vars[n++] = *e;
    }
  }
  put_int(b, (uint32_t)n);
  for (int i = 0; i < n; i++) {
    const char *eq = strchr(vars[i], '=');
    char name[256];
    size_t len = (size_t)(eq - vars[i]);
    if (len >= sizeof name) {
      return 0;
    }
    memcpy(name, vars[i], len);
    name[len] = '\0';
    if (!put_ascii(b, name) || !put_ascii(b, eq + 1)) {
      return 0;
    }
  }
  return 1;
}

static int write_all(int fd, const unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) {
        continue;
      }
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* 0: read; -1: error (errno); -2: the agent closed the connection first. */
static int read_full(int fd, unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t r = read(fd, p, n);
    if (r == 0) {
      return -2;
    }
    if (r < 0) {
      if (errno == EINTR) {
        continue;
      }
      return -1;
    }
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

static int wrote_output;
/* standard error could not be written: what comes for it is dropped */
static int err_closed;

/* The agent went away mid-command (why): run the command here if nothing was printed yet. */
static void lost(const char *why) {
  if (!wrote_output) {
    fall_back_to(1);
  }
  fprintf(stderr, "cairn: %s failed: the agent went away mid-command (%s)\n", command, why);
  exit(1);
}

static const char *read_error(int rc) {
  return rc == -2 ? "the agent closed the connection" : strerror(errno);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: cairn-thin SOCKET COMMAND N FALLBACK_1 .. FALLBACK_N ARGS...\n");
    return 2;
  }
  const char *socket_path = argv[1];
  command = argv[2];
  char *end;
  long n = strtol(argv[3], &end, 10);
  if (*end != '\0' || n < 1 || n > argc - 4) {
    fprintf(stderr, "cairn-thin: bad fallback count %s\n", argv[3]);
    return 2;
  }
  fallback_argv = argv + 4;
  char **args = argv + 4 + n;
  int nargs = argc - 4 - (int)n;
  /* FALLBACK then ARGS is argv's own tail: exec takes it as it is (argv[argc] is NULL) */

  signal(SIGPIPE, SIG_IGN); /* a closed standard output is an error to report, as it is in the JVM */
  char cwd[PATH_MAX];
  struct buf req = {0};
  put_int(&req, MAGIC);
  put_int(&req, WIRE_VERSION);
  if (getcwd(cwd, sizeof cwd) == NULL || cwd[0] != '/' || !put_ascii(&req, cwd) || nargs > MAX_ARGS) {
    fall_back();
  }
  /* terminal: the JVM's System.console() exists when standard input and output are terminals */
  unsigned char terminal = isatty(0) && isatty(1);
  put(&req, &terminal, 1);
  put_int(&req, (uint32_t)nargs);
  for (int i = 0; i < nargs; i++) {
    if (!put_ascii(&req, args[i])) {
      fall_back();
    }
  }
  if (!put_env(&req)) {
    fall_back();
  }

  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  if (strlen(socket_path) >= sizeof addr.sun_path) {
    fall_back_to(1);
  }
  strcpy(addr.sun_path, socket_path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    fall_back_to(1);
  }
  for (size_t off = 0; off < req.len;) {
    ssize_t w = send(fd, req.p + off, req.len - off, MSG_NOSIGNAL);
    if (w < 0) {
      if (errno == EINTR) {
        continue;
      }
      lost(strerror(errno));
    }
    off += (size_t)w;
  }
  free(req.p);

  static unsigned char data[64 << 10];
  for (;;) {
    unsigned char head[5];
    int rc = read_full(fd, head, 5);
    if (rc != 0) {
      lost(read_error(rc));
    }
    int32_t value = (int32_t)((uint32_t)head[1] << 24 | (uint32_t)head[2] << 16 | (uint32_t)head[3] << 8 | head[4]);
    if (head[0] == FRAME_EXIT) {
      return value;
    }
    if (value < 0 || value > MAX_FRAME || (head[0] != FRAME_OUT && head[0] != FRAME_ERR)) {
      char why[96];
      snprintf(why, sizeof why, "bad frame from the agent (type %d, %d bytes)", (signed char)head[0], value);
      lost(why);
    }
    int out = head[0] == FRAME_OUT ? 1 : 2;
    if (out == 1) {
      wrote_output = 1;
    }
    for (size_t left = (size_t)value; left > 0;) {
      size_t k = left < sizeof data ? left : sizeof data;
      rc = read_full(fd, data, k);
      if (rc != 0) {
        lost(read_error(rc));
      }
      if (out == 2) {
        /* standard error carries diagnostics, not the command's result: one that cannot be written is dropped (as the
           JVM drops what System.err cannot write) and the agent's exit code stands */
        if (!err_closed && write_all(2, data, k) != 0) {
          err_closed = 1;
        }
      } else if (write_all(1, data, k) != 0) {
        fprintf(stderr, "cairn: %s failed: cannot write standard output (%s)\n", command, strerror(errno));
        return 1;
      }
      left -= k;
    }
  }
}
