/* For it/tools/dmtcp-series (sim2-like): a 64 MB grid updated in a moving band, 32 MB of particles updated in a moving window,
   and a heap that grows 3 MB per step; waits for a line on stdin between steps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
static uint64_t r = 88172645463325252ULL;
static uint64_t nx(void) { r ^= r << 13; r ^= r >> 7; r ^= r << 17; return r; }
int main(void) {
  size_t gn = (64u << 20) / sizeof(double), side = 2896;
  double *g = malloc(gn * sizeof(double));
  for (size_t i = 0; i < gn; i++) g[i] = (double)(nx() % 1000000) / 1000.0;
  size_t pn = (32u << 20) / 64;
  double *p = malloc(pn * 64);
  for (size_t i = 0; i < pn * 8; i++) p[i] = (double)(nx() % 100000) / 1000.0;
  char *extra[64]; int ne = 0;
  for (int step = 0; ; step++) {
    printf("ready %d\n", step); fflush(stdout);
    char line[64]; if (!fgets(line, sizeof line, stdin)) break;
    size_t band = side * 256, b0 = (size_t)step * band % (gn - band);
    for (size_t i = b0; i < b0 + band; i++) g[i] = g[i] * 0.999 + 0.001 * (double)step;
    size_t w = pn / 8, w0 = (size_t)step * w / 2 % (pn - w);
    for (size_t i = w0 * 8; i < (w0 + w) * 8; i += 3) p[i] += 0.5;
    if (ne < 64) { extra[ne] = malloc(3u << 20); for (size_t i = 0; i < (3u << 20); i++) extra[ne][i] = (char)(nx() & 0x0f); ne++; }
  }
  return 0;
}
