package org.cairn.sim.durability;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.cairn.sim.churn.ChurnParameters;

/**
 * Every scheme with every placement over the same month: the world is drawn once from the seed and its history built
 * once, then each run replays it (runs are independent; {@code threads} of them at a time; the result does not depend
 * on how many).
 */
public final class DurabilityStudy {
  /**
   * The study's figures.
   *
   * @param departures donors that left over warm-up and month
   * @param diskLosses disks lost over warm-up and month
   * @param donorsByHour donors RUNNING, BUSY, DOWN at each hour of the month
   */
  public record Result(DurabilitySettings settings, long worldEvents, long departures, long diskLosses, int[][] donorsByHour,
      List<RunResult> runs, double setupSeconds) {}

  private DurabilityStudy() {}

  public static Result run(DurabilitySettings s, ChurnParameters churn, LongTermParameters longTerm, int threads)
      throws InterruptedException {
    long started = System.nanoTime();
    WorldEvents world = WorldEvents.draw(churn, longTerm, s.donors(), s.horizon(), s.seed());
    SlotHistory history = new SlotHistory(world, s.slotMinutes() * DurabilitySettings.MINUTE, s.windowDays() * DurabilitySettings.DAY,
        s.refreshHours() * 3_600_000L);
    double setup = (System.nanoTime() - started) / 1e9;
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      List<Future<RunResult>> futures = new ArrayList<>();
      for (String scheme : s.schemes()) {
        for (String placement : s.placements()) {
          futures.add(pool.submit(() -> new MonthRun(s, world, history, scheme, placement).run()));
        }
      }
      List<RunResult> runs = new ArrayList<>();
      for (Future<RunResult> f : futures) {
        runs.add(f.get());
      }
      return new Result(s, world.size(), world.departures(), world.diskLosses(), monthOnly(history.byHour(), s), runs, setup);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a run failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private static int[][] monthOnly(int[][] byHour, DurabilitySettings s) {
    int from = s.warmupDays() * 24;
    int[][] out = new int[byHour.length][];
    for (int i = 0; i < byHour.length; i++) {
      out[i] = java.util.Arrays.copyOfRange(byHour[i], Math.min(from, byHour[i].length), byHour[i].length);
    }
    return out;
  }
}
