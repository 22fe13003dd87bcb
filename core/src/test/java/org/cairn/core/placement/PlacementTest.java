package org.cairn.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.cairn.core.availability.HostState;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class PlacementTest {
  private static final double MB = 1e6;

  /**
   * Hand-worked 4-host example. m = 2, k = 1 (n = 3), image 200 MB -> 100 MB per host.
   * MTTF = 3600 s, CI = 600 s (MTTF/CI = 6), T_curr = 0 (second term weight 3600).
   *
   * <pre>
   * host  CRLS  ABw       N = 100 MB / ABw
   * A     1.70  10 MB/s   10 s
   * B     1.60  50 MB/s    2 s
   * C     0.90 100 MB/s    1 s
   * D     1.65   5 MB/s   20 s
   *
   * by CRLS desc: A D B | C       by N asc: C B A | D      first 3 of both: A, B
   * F({A,B})   = 6 * 12 - 3600 * (1.70 * 1.60)         =  72 -  9792    = -9720
   * F(+C)      = 6 * 13 - 3600 * (2.72 * 0.90 = 2.448) =  78 -  8812.8  = -8734.8
   * F(+D)      = 6 * 32 - 3600 * (2.72 * 1.65 = 4.488) = 192 - 16156.8  = -15964.8   <- smallest: D
   * chosen A, B, D with F = -15964.8; the alternate is C.
   * </pre>
   * The fastest host C loses: its CRLS below 1 makes a restart less likely to find the data.
   */
  @Test
  void falcon_handWorkedFourHostExample() throws Exception {
    List<Candidate> hosts = List.of(
        new Candidate("A", HostState.RUNNING, 1L << 40, 1.70, 10 * MB),
        new Candidate("B", HostState.RUNNING, 1L << 40, 1.60, 50 * MB),
        new Candidate("C", HostState.RUNNING, 1L << 40, 0.90, 100 * MB),
        new Candidate("D", HostState.LOADED, 1L << 40, 1.65, 5 * MB));
    PlacementRequest request = new PlacementRequest(200_000_000L, 2, 1, 3600, 600, 0, 12.5 * MB, 3);
    Placement p = new FalconPlacement().place(hosts, request);
    assertThat(p.hosts()).containsExactly("A", "B", "D");
    assertThat(p.alternates()).containsExactly("C");
    assertThat(p.objective()).isCloseTo(-15964.8, within(1e-6));
    assertThat(FalconPlacement.objective(List.of(hosts.get(0), hosts.get(1)), request)).isCloseTo(-9720, within(1e-6));
  }

  /**
   * When the job has run long and hosts are equally reliable, bandwidth decides. Same hosts but all
   * CRLS 1.0 (product 1 whatever is chosen): F = 6 * sum N - const, so the 3 smallest N win: C, B, A.
   */
  @Test
  void falcon_equalReliabilityPrefersBandwidth() throws Exception {
    List<Candidate> hosts = List.of(
        new Candidate("A", HostState.RUNNING, 1L << 40, 1.0, 10 * MB),
        new Candidate("B", HostState.RUNNING, 1L << 40, 1.0, 50 * MB),
        new Candidate("C", HostState.RUNNING, 1L << 40, 1.0, 100 * MB),
        new Candidate("D", HostState.RUNNING, 1L << 40, 1.0, 5 * MB));
    Placement p = new FalconPlacement().place(hosts, new PlacementRequest(200_000_000L, 2, 1, 3600, 600, 7200, 12.5 * MB, 1));
    assertThat(p.hosts()).containsExactlyInAnyOrder("A", "B", "C");
    assertThat(p.alternates()).containsExactly("D");
  }

  /**
   * The tau2 case: C has the fastest link but its owner keeps its disk busy, so its disk takes
   * Cairn's writes at 3 MB/s; D's link gives 5 MB/s. With the disk rate capping N_i, D is chosen
   * instead of C; without a disk rate C would be.
   */
  @Test
  void falcon_aSlowDiskCapsTheLinkRate() throws Exception {
    PlacementRequest r = new PlacementRequest(200_000_000L, 2, 1, 3600, 600, 7200, 12.5 * MB, 1);
    List<Candidate> loaded = List.of(
        new Candidate("A", HostState.RUNNING, 1L << 40, 1.0, 100 * MB, 20 * MB),
        new Candidate("B", HostState.RUNNING, 1L << 40, 1.0, 100 * MB, 20 * MB),
        new Candidate("C", HostState.LOADED, 1L << 40, 1.0, 100 * MB, 3 * MB),
        new Candidate("D", HostState.RUNNING, 1L << 40, 1.0, 5 * MB, 20 * MB));
    Placement p = new FalconPlacement().place(loaded, r);
    assertThat(p.hosts()).containsExactlyInAnyOrder("A", "B", "D");
    assertThat(p.alternates()).containsExactly("C");
    List<Candidate> unknownDisk = List.of(loaded.get(0), loaded.get(1),
        new Candidate("C", HostState.LOADED, 1L << 40, 1.0, 100 * MB, 0), loaded.get(3));
    assertThat(new FalconPlacement().place(unknownDisk, r).hosts()).containsExactlyInAnyOrder("A", "B", "C");
  }

  @Test
  void expectedRate_isTheSlowerOfLinkAndDisk_withTheDefaultForAnUnmeasuredLink() {
    assertThat(new Candidate("X", HostState.RUNNING, 1, 1, 50 * MB, 0).expectedRate(25 * MB)).isEqualTo(50 * MB);
    assertThat(new Candidate("X", HostState.RUNNING, 1, 1, 50 * MB, 8 * MB).expectedRate(25 * MB)).isEqualTo(8 * MB);
    assertThat(new Candidate("X", HostState.RUNNING, 1, 1, 0, 80 * MB).expectedRate(25 * MB)).isEqualTo(25 * MB);
    assertThat(new Candidate("X", HostState.RUNNING, 1, 1, 0, 8 * MB).expectedRate(25 * MB)).isEqualTo(8 * MB);
  }

  @Test
  void falcon_unknownBandwidthUsesTheDefault() {
    PlacementRequest r = new PlacementRequest(300_000_000L, 3, 2, 3600, 600, 0, 25 * MB, 0);
    Candidate unmeasured = new Candidate("X", HostState.RUNNING, 1L << 40, 1.5, 0);
    assertThat(FalconPlacement.networkOverhead(unmeasured, r)).isCloseTo(4.0, within(1e-12));
  }

  @RepeatedTest(50)
  void everyPolicy_choosesDistinctWritableHostsWithRoom(RepetitionInfo info) throws Exception {
    Random random = new Random(info.getCurrentRepetition());
    List<Candidate> hosts = randomHosts(random, 5 + random.nextInt(60));
    int m = 1 + random.nextInt(4);
    int k = random.nextInt(3);
    PlacementRequest r = new PlacementRequest(random.nextInt(1 << 30), m, k, 600 + random.nextInt(7200), 60 + random.nextInt(1200),
        random.nextInt(10000), 12.5 * MB, random.nextInt(4));
    Map<String, Candidate> byId = hosts.stream().collect(Collectors.toMap(Candidate::id, Function.identity()));
    long eligible = hosts.stream().filter(c -> c.state().acceptsWrites() && c.freeBytes() >= r.fragmentBytes()).count();
    for (PlacementPolicy policy : List.of(new FalconPlacement(), new RandomPlacement(info.getCurrentRepetition()))) {
      if (eligible < r.n()) {
        assertThatThrownBy(() -> policy.place(hosts, r)).isInstanceOf(NotEnoughHostsException.class)
            .hasMessageContaining("need " + r.n());
        continue;
      }
      Placement p = policy.place(hosts, r);
      assertThat(p.hosts()).hasSize(r.n());
      List<String> all = new ArrayList<>(p.hosts());
      all.addAll(p.alternates());
      assertThat(new HashSet<>(all)).as("%s never repeats a host", policy.name()).hasSize(all.size());
      for (String id : all) {
        Candidate c = byId.get(id);
        assertThat(c.state()).as(policy.name()).isIn(HostState.RUNNING, HostState.LOADED);
        assertThat(c.freeBytes()).isGreaterThanOrEqualTo(r.fragmentBytes());
      }
      assertThat(p.alternates().size()).isLessThanOrEqualTo(r.alternates());
      // deterministic, whatever the order the tracker lists hosts in
      List<Candidate> shuffled = new ArrayList<>(hosts);
      Collections.shuffle(shuffled, random);
      Placement again = (policy instanceof RandomPlacement ? new RandomPlacement(info.getCurrentRepetition()) : policy).place(shuffled, r);
      assertThat(again.hosts()).isEqualTo(p.hosts());
      assertThat(again.alternates()).isEqualTo(p.alternates());
    }
  }

  @RepeatedTest(20)
  void falcon_isNeverWorseThanRandom(RepetitionInfo info) throws Exception {
    Random random = new Random(1000 + info.getCurrentRepetition());
    List<Candidate> hosts = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      hosts.add(new Candidate("h" + i, HostState.RUNNING, 1L << 40, random.nextDouble() * 2, (1 + random.nextInt(100)) * MB));
    }
    PlacementRequest r = new PlacementRequest(1L << 30, 3, 2, 3600, 600, 1800, 12.5 * MB, 0);
    double falcon = new FalconPlacement().place(hosts, r).objective();
    for (int seed = 0; seed < 20; seed++) {
      List<String> ids = new RandomPlacement(seed).place(hosts, r).hosts();
      List<Candidate> chosen = hosts.stream().filter(c -> ids.contains(c.id())).collect(Collectors.toList());
      assertThat(falcon).isLessThanOrEqualTo(FalconPlacement.objective(chosen, r) + 1e-9);
    }
  }

  @Test
  void aTooLargeImage_isToldApartFromTooFewHosts() {
    List<Candidate> hosts = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      hosts.add(new Candidate("h" + i, HostState.RUNNING, 100_000_000L, 2, 100 * MB));
    }
    PlacementRequest big = PlacementRequest.of(1_000_000_000L, 4, 2); // 250 MB each, 100 MB free on each
    for (PlacementPolicy policy : List.of(new FalconPlacement(), new RandomPlacement(1))) {
      assertThatThrownBy(() -> policy.place(hosts, big)).isInstanceOf(NotEnoughHostsException.class)
          .hasMessageContaining("need 6").hasMessageContaining("have 0 of 6")
          .hasMessageContaining("6 accept writes, the most room on one is " + org.cairn.core.config.ByteSize.format(100_000_000L));
    }
    hosts.replaceAll(h -> new Candidate(h.id(), HostState.DOWN, 1L << 40, 2, 100 * MB));
    assertThatThrownBy(() -> new FalconPlacement().place(hosts, big)).isInstanceOf(NotEnoughHostsException.class)
        .hasMessageContaining("have 0 of 6").hasMessageNotContaining("accept writes");
  }

  @Test
  void aShortageOfHostsThatAreBusyOrFullNow_mayPass_oneOfTooFewOrTooSmallOrDownHostsMayNot() {
    PlacementRequest r = PlacementRequest.of(100_000_000L, 3, 2); // 5 hosts with 33 MB free each
    java.util.function.Function<HostState[], NotEnoughHostsException> refusal = states -> {
      List<Candidate> hosts = new java.util.ArrayList<>();
      for (int i = 0; i < states.length; i++) {
        hosts.add(new Candidate("h" + i, states[i], 1L << 30, 2, 100 * MB));
      }
      try {
        new FalconPlacement().place(hosts, r);
        throw new AssertionError("placed on " + List.of(states));
      } catch (NotEnoughHostsException e) {
        return e;
      }
    };
    HostState run = HostState.RUNNING;
    NotEnoughHostsException busy = refusal.apply(new HostState[] {run, run, HostState.LOADED, HostState.BUSY, HostState.FULL});
    assertThat(busy.passing()).isTrue();
    assertThat(busy).hasMessageContaining("have 3 of 5 known").hasMessageContaining("2 more are BUSY or FULL now");
    NotEnoughHostsException tooFew = refusal.apply(new HostState[] {run, run, run, HostState.BUSY});
    assertThat(tooFew.passing()).as("4 hosts for 5 pieces").isFalse();
    assertThat(tooFew).hasMessageContaining("1 more is BUSY or FULL now");
    NotEnoughHostsException down = refusal.apply(new HostState[] {run, run, run, HostState.DOWN, HostState.DOWN});
    assertThat(down.passing()).isFalse();
    assertThat(down).hasMessageNotContaining("BUSY or FULL");
    // a BUSY host without room for its piece does not count
    List<Candidate> small = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      small.add(new Candidate("h" + i, i < 4 ? run : HostState.BUSY, i < 4 ? 1L << 30 : 1_000_000L, 2, 100 * MB));
    }
    assertThatThrownBy(() -> new FalconPlacement().place(small, r)).isInstanceOfSatisfying(NotEnoughHostsException.class,
        e -> assertThat(e.passing()).isFalse());
    assertThat(new NotEnoughHostsException(1, 0, 2).passing()).isFalse();
  }

  @Test
  void dedicated_putsEveryFragmentOnOneServer() throws Exception {
    List<Candidate> hosts = List.of(
        new Candidate("server", HostState.RUNNING, 1L << 40, 2, 100 * MB),
        new Candidate("desk", HostState.RUNNING, 1L << 40, 2, 100 * MB));
    Placement p = PlacementPolicy.parse("dedicated:server").place(hosts, PlacementRequest.of(1 << 20, 3, 2));
    assertThat(p.hosts()).containsExactly("server", "server", "server", "server", "server");
    assertThat(p.alternates()).isEmpty();
    assertThatThrownBy(() -> PlacementPolicy.parse("dedicated:nas").place(hosts, PlacementRequest.of(1, 1, 0)))
        .isInstanceOf(NotEnoughHostsException.class);
  }

  @Test
  void parse_namesTheBadPolicy() {
    assertThat(PlacementPolicy.parse("falcon").name()).isEqualTo("falcon");
    assertThat(PlacementPolicy.parse("random:7").name()).isEqualTo("random");
    assertThatThrownBy(() -> PlacementPolicy.parse("nearest")).hasMessageContaining("'nearest'");
    assertThatThrownBy(() -> PlacementPolicy.parse("random:x")).hasMessageContaining("'x'");
    assertThatThrownBy(() -> new PlacementRequest(1, 0, 1, 1, 1, 0, 1, 0)).hasMessageContaining("m >= 1");
  }

  private static List<Candidate> randomHosts(Random random, int count) {
    List<Candidate> out = new ArrayList<>();
    HostState[] states = HostState.values();
    for (int i = 0; i < count; i++) {
      out.add(new Candidate("host-" + i, states[random.nextInt(states.length)], random.nextInt(4) == 0 ? 1000 : 1L << 40,
          random.nextDouble() * 2, random.nextInt(5) == 0 ? 0 : (1 + random.nextInt(100)) * MB));
    }
    return out;
  }
}
