/* For it/tools/criu-series: a C program with a simulation-like working set dumped by CRIU between steps.
   ~152 MB at start (its first dump is 160 MB): a 96 MB field of doubles (a smooth profile plus noise), 40 MB of
   particles (56-byte records), 16 MB of text records. Each step (on SIGUSR1) rewrites a moving band of 1.5 % of the
   field, 24 runs of particles (~4 % of them) and 200 text records (~5 % of their pages), allocates 6 MB of new results
   and, every second step from the fourth on, frees the oldest results block: ~2.5 % of the pages (3.9 MB) change
   and the image grows 6 MB or 0 a step. Prints "ready N" after each step. With a FILE argument a second thread
   appends the wall clock (seconds, 6 decimals) to FILE every 10 ms: the largest gap while a dump runs is how long
   the process was frozen. Seeded: the same run every time. */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

static uint64_t r = 88172645463325252ULL;
static uint64_t nx(void) { r ^= r << 13; r ^= r >> 7; r ^= r << 17; return r; }

typedef struct { double x, y, z, vx, vy, vz; int32_t id, flags; } particle;

static int tick_fd = -1;
static void *ticker(void *arg) {
  (void)arg;
  char line[32];
  for (;;) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int n = snprintf(line, sizeof line, "%ld.%06ld\n", (long)ts.tv_sec, ts.tv_nsec / 1000);
    if (write(tick_fd, line, n) != n) return NULL;
    struct timespec d = {0, 10 * 1000 * 1000};
    nanosleep(&d, NULL);
  }
}

int main(int argc, char **argv) {
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, NULL); /* before the ticker starts: it inherits the mask */
  if (argc > 1) {
    tick_fd = open(argv[1], O_WRONLY | O_CREAT | O_APPEND, 0644);
    pthread_t t;
    if (tick_fd < 0 || pthread_create(&t, NULL, ticker, NULL) != 0) { perror("ticker"); return 1; }
  }
  size_t gn = (96u << 20) / sizeof(double);
  double *g = malloc(gn * sizeof(double));
  for (size_t i = 0; i < gn; i++) g[i] = 300.0 + 40.0 * sin((double)i * 1e-5) + (double)(nx() % 1000) / 100.0;
  size_t pn = (40u << 20) / sizeof(particle);
  particle *p = malloc(pn * sizeof(particle));
  for (size_t i = 0; i < pn; i++) {
    p[i] = (particle){(double)(nx() % 1000000) / 1e3, (double)(nx() % 1000000) / 1e3, (double)(nx() % 1000000) / 1e3,
                      (double)(nx() % 2000) / 1e3 - 1, (double)(nx() % 2000) / 1e3 - 1, (double)(nx() % 2000) / 1e3 - 1,
                      (int32_t)i, 0};
  }
  size_t tn = (16u << 20) / 64;
  char (*t)[64] = malloc(tn * 64);
  for (size_t i = 0; i < tn; i++) snprintf(t[i], 64, "record-%08zu state=%s count=%llu;", i, (nx() & 1) ? "idle" : "busy",
                                           (unsigned long long)(nx() % 100000));
  enum { MAXR = 64, RES = 6 << 20 };
  double *res[MAXR] = {0};
  int oldest = 0, nres = 0;
  for (int step = 0;; step++) {
    printf("ready %d\n", step);
    fflush(stdout);
    int sig;
    sigwait(&usr1, &sig);
    size_t band = gn * 3 / 200, b0 = (size_t)step * band % (gn - band);
    for (size_t i = b0; i < b0 + band; i++) g[i] = g[i] * 0.999 + 0.3 + (double)(nx() % 100) / 1e4;
    for (int k = 0; k < 24; k++) {
      size_t run = pn / 600, at = nx() % (pn - run);
      for (size_t i = at; i < at + run; i++) {
        p[i].x += p[i].vx; p[i].y += p[i].vy; p[i].z += p[i].vz; p[i].flags++;
      }
    }
    for (int k = 0; k < 200; k++) {
      size_t i = nx() % tn;
      snprintf(t[i], 64, "record-%08zu state=%s count=%llu;", i, "done", (unsigned long long)(nx() % 100000));
    }
    if (nres < MAXR) {
      double *b = malloc(RES);
      for (size_t i = 0; i < RES / sizeof(double); i++) b[i] = g[(i * 7) % gn] * 0.5 + (double)(nx() % 1000) / 1e3;
      res[nres++] = b;
    }
    if (step % 2 == 1 && step >= 3 && res[oldest]) { free(res[oldest]); res[oldest++] = NULL; }
  }
}
