package org.cairn.it.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.core.api.repair.RepairClaim;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.api.repair.RepairOutcome;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;

/**
 * A hostile donor, run as its own process by {@link HostileDonorIT}: with a donor enrollment token
 * it registers at a victim peer's address, then at an address of its own claiming 4 EiB free (and
 * heartbeats that claim until killed), reports forged repair outcomes that place a victim's pieces
 * on itself, and floods the victim's data plane with pre-AUTH frames announcing 32 MiB payloads on
 * many connections, which it then holds open. It prints one line per step ({@code STEP: ...}) for
 * the test to read; it never stops on a refusal.
 *
 * <p>Arguments: TRACKER_URL DONOR_TOKEN_FILE VICTIM_ADDRESS VICTIM_TLS(true|false) CONNECTIONS
 * MIB_PER_CONNECTION PIECES_FILE (lines {@code CHUNK_HEX INDEX} of pieces to claim).
 */
public final class HostileDonor {
  /** What the hostile donor claims to have free and to give: 4 EiB, far past any disk. */
  static final long CLAIM = 1L << 62;

  private HostileDonor() {}

  public static void main(String[] args) throws Exception {
    String tracker = args[0];
    String donor = GridToken.readFile(Path.of(args[1])).text();
    String victim = args[2];
    Api api = Api.of(tracker, donor);

    String suffix = Long.toHexString(new SecureRandom().nextLong());
    Api.Reply atVictim = api.post("/api/v1/peers", register("impostor-" + suffix, victim), donor);
    say("register-at-victim", atVictim.status() + " " + (atVictim.status() == 200 ? "as " + atVictim.json().get("id").asText()
        : oneLine(atVictim.body())));
    if (atVictim.status() == 200) { // the impostor got in: leave, so what follows is measured on its own
      JsonNode r = atVictim.json();
      say("impostor-left", api.post("/api/v1/peers/" + r.get("id").asText() + "/leave", "{}", r.get("credential").asText()).status() + "");
    }

    ServerSocket own = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    Thread closer = new Thread(() -> refuseAll(own), "hostile-accept");
    closer.setDaemon(true);
    closer.start();
    Api.Reply joined = api.post("/api/v1/peers", register("hostile-" + suffix, "127.0.0.1:" + own.getLocalPort()), donor);
    say("registered", joined.status() + " " + (joined.status() == 200 ? joined.json().get("id").asText() : oneLine(joined.body())));
    if (joined.status() == 200) {
      String id = joined.json().get("id").asText();
      String credential = joined.json().get("credential").asText();
      say("heartbeat", heartbeat(api, id, credential).status() + "");
      falseRepairs(api, id, credential, Path.of(args[6]));
      Thread beat = new Thread(() -> beatForever(api, id, credential), "hostile-heartbeat");
      beat.setDaemon(true);
      beat.start();
    }
    flood(victim, Boolean.parseBoolean(args[3]), Integer.parseInt(args[4]), Integer.parseInt(args[5]));
    Thread.sleep(Long.MAX_VALUE); // hold the flood's connections and heartbeat until killed
  }

  private static RegisterRequest register(String id, String address) {
    return new RegisterRequest(id, address, "RUNNING", CLAIM, 0, CLAIM, 0, false, "0.1.0");
  }

  private static Api.Reply heartbeat(Api api, String id, String credential) throws Exception {
    return api.post("/api/v1/peers/" + id + "/heartbeat", new HeartbeatRequest("RUNNING", CLAIM, 0, 0, false, 1e12), credential);
  }

  private static void beatForever(Api api, String id, String credential) {
    while (true) {
      try {
        heartbeat(api, id, credential);
        Thread.sleep(400);
      } catch (Exception e) {
        say("heartbeat-failed", e.toString());
        return;
      }
    }
  }

  /** Claims jobs, then reports outcomes (real job ids if any, forged otherwise) placing the victim's pieces here. */
  private static void falseRepairs(Api api, String id, String credential, Path piecesFile) throws Exception {
    Api.Reply claimed = api.post("/api/v1/peers/" + id + "/repair", new RepairClaim(64), credential);
    List<String> jobIds = new ArrayList<>();
    if (claimed.status() == 200) {
      claimed.json().path("jobs").forEach(j -> jobIds.add(j.get("id").asText()));
    }
    say("repair-claim", claimed.status() + " jobs=" + jobIds.size());
    List<RepairOutcome> outcomes = new ArrayList<>();
    int n = 0;
    for (String line : Files.readAllLines(piecesFile)) {
      String[] f = line.trim().split(" ");
      if (f.length == 2) {
        String job = n < jobIds.size() ? jobIds.get(n) : f[0];
        outcomes.add(new RepairOutcome(job, List.of(new RepairJob.Piece(Integer.parseInt(f[1]), id, "127.0.0.1:1")), null));
        n++;
      }
    }
    Api.Reply repaired = api.post("/api/v1/peers/" + id + "/repaired", new RepairClaim.Report(outcomes), credential);
    say("repaired", repaired.status() + " " + oneLine(repaired.body()));
  }

  /** Accepts and at once closes every connection: a donor that serves nothing. */
  private static void refuseAll(ServerSocket own) {
    while (true) {
      try {
        own.accept().close();
      } catch (IOException e) {
        return;
      }
    }
  }

  /**
   * {@code connections} connections to the victim, each sending an AUTH frame header announcing 32
   * MiB and then {@code mib} MiB of it, in parallel; prints how many the victim took to the end.
   */
  private static void flood(String victim, boolean tls, int connections, int mib) throws Exception {
    String[] hp = victim.split(":");
    AtomicInteger delivered = new AtomicInteger();
    AtomicInteger cut = new AtomicInteger();
    List<Socket> held = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = new ArrayList<>();
    SSLContext context = tls ? trustAnything() : null;
    for (int c = 0; c < connections; c++) {
      Thread t = new Thread(() -> {
        try {
          Socket s = context == null ? new Socket(hp[0], Integer.parseInt(hp[1]))
              : context.getSocketFactory().createSocket(hp[0], Integer.parseInt(hp[1]));
          held.add(s);
          s.setSoTimeout(30_000);
          OutputStream out = s.getOutputStream();
          ByteBuffer header = ByteBuffer.allocate(Frame.HEADER).putShort((short) Frame.MAGIC).put((byte) Frame.VERSION)
              .put((byte) FrameType.AUTH.id()).putInt(1).putInt(Frame.MAX_PAYLOAD);
          out.write(header.array());
          byte[] block = new byte[64 << 10];
          for (long sent = 0; sent < (long) mib << 20; sent += block.length) {
            out.write(block);
          }
          out.flush();
          delivered.incrementAndGet();
        } catch (IOException e) {
          cut.incrementAndGet();
        }
      }, "flood-" + c);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join(120_000);
    }
    say("flood-done", "connections=" + connections + " delivered=" + delivered.get() + " cut=" + cut.get());
  }

  /** The attacker's TLS: it checks nothing, it only wants its bytes read. */
  private static SSLContext trustAnything() throws Exception {
    X509TrustManager any = new X509TrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) {}

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType) {}

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
      }
    };
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(null, new TrustManager[] {any}, new SecureRandom());
    return c;
  }

  private static String oneLine(String s) {
    String line = s.replace('\n', ' ');
    return line.length() > 300 ? line.substring(0, 300) : line;
  }

  private static synchronized void say(String step, String what) {
    System.out.println(step + ": " + what);
    System.out.flush();
  }
}
