/*
 * A stand-in for a long-running scientific job, to produce real process memory images with gcore:
 * a 2-D heat-diffusion grid (doubles that change everywhere, a little, each step), particle
 * records of which a fraction move each step, a lookup table and a text log that only grow, and
 * a large scratch region that is mostly untouched. Between checkpoints it runs STEPS_PER_CKPT
 * steps; the driver script dumps its memory with gcore at each checkpoint.
 *
 *   mutator GRID_MB PARTICLE_MB TABLE_MB SCRATCH_MB
 * It prints "ready" after each batch of steps and waits for a line on stdin before the next.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

typedef struct { double x, y, z, vx, vy, vz; int64_t id; int32_t cell, flags; } particle;

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

int main(int argc, char **argv) {
  if (argc != 5) { fprintf(stderr, "usage: mutator GRID_MB PARTICLE_MB TABLE_MB SCRATCH_MB\n"); return 2; }
  size_t grid_n = (size_t) atol(argv[1]) * 1024 * 1024 / sizeof(double);
  size_t np = (size_t) atol(argv[2]) * 1024 * 1024 / sizeof(particle);
  size_t table_n = (size_t) atol(argv[3]) * 1024 * 1024 / sizeof(int64_t);
  size_t scratch = (size_t) atol(argv[4]) * 1024 * 1024;
  size_t side = 1; while (side * side < grid_n) side++;
  double *grid = calloc(grid_n, sizeof(double));
  particle *ps = calloc(np, sizeof(particle));
  int64_t *table = calloc(table_n, sizeof(int64_t));
  char *scratch_buf = calloc(scratch, 1);
  char *log = calloc(64 * 1024 * 1024, 1);
  size_t log_len = 0, table_used = 0;
  if (!grid || !ps || !table || !scratch_buf || !log) { perror("calloc"); return 1; }
  for (size_t i = 0; i < grid_n; i++) grid[i] = (i % side) * 0.001;
  for (size_t i = 0; i < np; i++) { ps[i].id = (int64_t) i; ps[i].x = (double) (next() % 1000); ps[i].cell = (int32_t) (i % 4096); }
  /* touch a tenth of the scratch area once: a buffer written at start-up, then left alone */
  for (size_t i = 0; i < scratch / 10; i += 64) scratch_buf[i] = (char) (next() & 0xff);
  char line[64];
  for (int ckpt = 0; ; ckpt++) {
    /* heat diffusion on a band of rows: the active region of the domain (about 20 % per checkpoint) */
    size_t rows = side / 5, start = ((size_t) ckpt * rows) % (side > rows ? side - rows : 1);
    for (int step = 0; step < 3; step++)
      for (size_t r = start + 1; r < start + rows && r + 1 < side; r++)
        for (size_t c = 1; c + 1 < side; c++) {
          size_t i = r * side + c;
          if (i + side < grid_n) grid[i] = 0.25 * (grid[i - 1] + grid[i + 1] + grid[i - side] + grid[i + side]) + 1e-3;
        }
    /* 5 % of particles move */
    for (size_t k = 0; k < np / 20; k++) {
      particle *p = &ps[next() % np];
      p->x += 0.01; p->vx = (double) (next() % 100) / 100.0; p->flags ^= 1;
    }
    /* append-only table and log */
    for (int k = 0; k < 20000 && table_used < table_n; k++) table[table_used++] = (int64_t) next();
    log_len += (size_t) snprintf(log + log_len, 64 * 1024 * 1024 - log_len - 1,
        "checkpoint %d residual=%.6e particles=%zu\n", ckpt, grid[side + 1], np);
    printf("ready %d\n", ckpt);
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin)) break;
  }
  return 0;
}
