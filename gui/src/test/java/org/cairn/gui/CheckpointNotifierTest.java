package org.cairn.gui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.cairn.cli.agent.wire.NoticeClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointNotifierTest {
  private static final long S = 1_000_000_000L;

  @TempDir
  Path dir;

  private static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 10 * S;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s: " + what);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void aFlappingOwnerSendsOneNoticePerMinute() throws Exception {
    List<String> sent = new CopyOnWriteArrayList<>();
    Activity activity = new Activity();
    try (CheckpointNotifier n = new CheckpointNotifier(dir.resolve("agent.sock"), reason -> {
      sent.add(reason);
      return new NoticeClient.Answer(0, "{\"sent\":true}", "");
    }, activity)) {
      n.ownerBack("the owner is using the computer", 0);
      n.ownerBack("the owner is using the computer", 5 * S);
      n.ownerBack("the owner is using the computer", 59 * S);
      await("the first notice", () -> sent.size() == 1);
      n.ownerBack("outside donation hours 08:00-18:00", 60 * S);
      await("a notice a minute later", () -> sent.size() == 2);
      assertThat(sent.get(1)).contains("outside donation hours");
      await("said in the activity", () -> activity.events().size() == 2);
    }
  }

  @Test
  void withoutAnAgentTheDonorGoesOn() throws Exception {
    Activity activity = new Activity();
    Path none = dir.resolve("agent.sock");
    List<Exception> failed = new CopyOnWriteArrayList<>();
    try (CheckpointNotifier n = new CheckpointNotifier(none, reason -> {
      try {
        return NoticeClient.notify(none, reason); // the real client: nothing listens there
      } catch (java.io.IOException e) {
        failed.add(e);
        throw e;
      }
    }, activity)) {
      n.ownerBack("the owner is using the computer", 0);
      await("the attempt", () -> failed.size() == 1);
    }
    assertThat(activity.events()).as("nothing told, nothing said in the activity").isEmpty();
  }
}
