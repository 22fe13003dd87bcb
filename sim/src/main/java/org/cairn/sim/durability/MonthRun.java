package org.cairn.sim.durability;

import java.util.SplittableRandom;
import org.cairn.core.erasure.Redundancy;

/**
 * One scheme with one placement over the month: the world's events replayed into a {@link Grid}, the version stream
 * ({@link Stores}) and repair ({@link Repairs}) on one {@link EventLoop}. The jobs' compute hosts and phases come from
 * the study's seed (the same for every run compared); executors and random placement from the run's own stream.
 */
public final class MonthRun {
  private final DurabilitySettings settings;
  private final WorldEvents world;
  private final SlotHistory history;
  private final String scheme;
  private final String placement;
  /** Called at the start of every day of the month with the grid and the versions kept (the tests check invariants). */
  private java.util.function.BiConsumer<Grid, Iterable<Version>> daily = (g, kept) -> {};

  MonthRun(DurabilitySettings settings, WorldEvents world, SlotHistory history, String scheme, String placement) {
    this.settings = settings;
    this.world = world;
    this.history = history;
    this.scheme = scheme;
    this.placement = placement;
  }

  MonthRun onEachDay(java.util.function.BiConsumer<Grid, Iterable<Version>> check) {
    this.daily = check;
    return this;
  }

  RunResult run() {
    long started = System.nanoTime();
    Redundancy redundancy = Redundancy.parse(scheme);
    EventLoop loop = new EventLoop();
    Grid grid = new Grid(settings, world, history, loop);
    SplittableRandom jobs = new SplittableRandom(settings.seed() ^ 0x5DEECE66DL);
    SplittableRandom own = new SplittableRandom(settings.seed() * 31 + (scheme + "/" + placement).hashCode());
    Policies policies = new Policies(placement, own.split());
    Stores stores = new Stores(grid, redundancy, policies, jobs.split());
    stores.start(jobs.split());
    new Repairs(grid, policies, own.split()).start();
    if (world.size() > 0) {
      loop.schedule(world.time(0), () -> fire(grid, 0));
    }
    for (int d = 0; d < settings.days(); d++) {
      loop.schedule(settings.monthStart() + d * DurabilitySettings.DAY, () -> {
        for (Version v : stores.kept()) {
          grid.tally.live(v, loop.now());
        }
        grid.tally.holdersSummed += grid.holders();
        grid.tally.holderSamples++;
        daily.accept(grid, stores.kept());
      });
    }
    loop.runUntil(settings.horizon());
    return RunResult.of(redundancy.spec(), placement, redundancy.dataFragments(), redundancy.totalFragments(), grid.tally, loop.ran(),
        (System.nanoTime() - started) / 1e9);
  }

  private void fire(Grid grid, int i) {
    grid.donors.apply(world, i, grid);
    if (i + 1 < world.size()) {
      grid.loop.schedule(world.time(i + 1), () -> fire(grid, i + 1));
    }
  }
}
