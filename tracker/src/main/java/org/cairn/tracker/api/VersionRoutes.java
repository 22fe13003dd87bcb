package org.cairn.tracker.api;

import static org.cairn.tracker.api.Requests.json;
import static org.cairn.tracker.api.Requests.parseStep;
import static org.cairn.tracker.api.Requests.read;
import static org.cairn.tracker.api.Requests.requireApp;
import static org.cairn.tracker.api.Requests.requireMethod;
import static org.cairn.tracker.api.Requests.required;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cairn.core.api.Acknowledged;
import org.cairn.core.api.CatalogRecordBlob;
import org.cairn.core.api.CommitRequest;
import org.cairn.core.api.FolderPolicy;
import org.cairn.core.api.RecordAttach;
import org.cairn.core.api.VersionRow;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.Manifest;
import org.cairn.tracker.auth.Principal;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.catalog.VersionReads;
import org.cairn.tracker.catalog.CatalogRecords;
import org.cairn.tracker.repair.RepairService;

/**
 * Versions: list, commit and delete ({@code /api/v1/versions}), their catalog records on the grid
 * ({@code /api/v1/records}), sets in progress ({@code GET /api/v1/sets}) and apps' folder policies
 * ({@code /api/v1/policy}).
 */
final class VersionRoutes {
  private final Catalog catalog;
  private final RepairService repair;
  private final Metrics metrics;
  private volatile CatalogRecords records;

  VersionRoutes(Catalog catalog, RepairService repair, Metrics metrics) {
    this.catalog = catalog;
    this.repair = repair;
    this.metrics = metrics;
  }

  void setRecords(CatalogRecords records) {
    this.records = records;
  }

  Response versions(String method, Map<String, String> query, byte[] body, Principal who) throws IOException, ApiException {
    switch (method) {
      case "GET": {
        String app = required(query, "app");
        requireApp(who, app);
        String node = required(query, "node");
        List<VersionRow> vs = new ArrayList<>();
        for (VersionReads.Listed l : catalog.reads().listed(app, node)) {
          VersionRow v = l.row();
          vs.add(v.withStatus(catalog.soft().isSoft(app, node, v.step()) ? "soft" : repair.status(app, l.chunks())));
        }
        return json(200, vs);
      }
      case "POST":
        return commit(read(body, CommitRequest.class), who);
      case "DELETE": {
        requireApp(who, query.get("app"));
        long step = parseStep(required(query, "step"));
        if (!catalog.delete(required(query, "app"), required(query, "node"), step)) {
          throw new ApiException(404, "no such version");
        }
        return json(200, new Acknowledged.Deleted(true));
      }
      default:
        throw new ApiException(405, "use GET, POST or DELETE on /api/v1/versions");
    }
  }

  private Response commit(CommitRequest c, Principal who) throws IOException, ApiException {
    if (c.manifest() == null) {
      throw new ApiException(400, "field 'manifest' (an object) is required");
    }
    requireApp(who, c.manifest().app());
    List<Catalog.NewChunk> chunks = new ArrayList<>();
    for (CommitRequest.NewChunk nc : c.chunks() == null ? List.<CommitRequest.NewChunk>of() : c.chunks()) {
      chunks.add(new Catalog.NewChunk(ChunkId.parse(required(nc.id(), "chunks[].id")),
          nc.holders() == null ? List.of() : nc.holders(), nc.storedBytes(), nc.tags(), nc.redundancy(),
          nc.base() == null ? null : ChunkId.parse(nc.base())));
    }
    long step = catalog.commit(c.manifest(), chunks, c.session(), c.soft());
    if (c.session() != null) {
      catalog.pending().close(c.session()); // committed: the index now names its pieces
    }
    metrics.committed();
    Manifest.SetPart set = c.manifest().set();
    if (set == null) {
      return json(200, new CommitRequest.Answer(c.manifest().app(), c.manifest().node(), step));
    }
    int committed = step > 0 ? set.parts()
        : catalog.sets().progress(c.manifest().app(), c.manifest().node(), set.name()).committed();
    return json(200, new CommitRequest.Answer(c.manifest().app(), c.manifest().node(), step, set.name(), set.parts(), committed));
  }

  /**
   * A store puts its version's catalog record on the grid: {@code GET /api/v1/records?app&node&step}
   * seals it, {@code POST /api/v1/records} ({@link RecordAttach}) names its pieces.
   */
  Response records(String method, Map<String, String> query, byte[] body, Principal who) throws IOException, ApiException {
    CatalogRecords r = records;
    if (r == null) {
      throw new ApiException(503, "this tracker makes no catalog records");
    }
    if (method.equals("GET")) {
      String app = required(query, "app");
      requireApp(who, app);
      CatalogRecordBlob blob = r.seal(app, required(query, "node"), parseStep(required(query, "step")));
      if (blob == null) {
        throw new ApiException(404, "no such version");
      }
      return json(200, blob);
    }
    requireMethod(method, "POST");
    RecordAttach a = read(body, RecordAttach.class);
    requireApp(who, required(a.app(), "app"));
    CommitRequest.NewChunk nc = a.chunk();
    if (nc == null) {
      throw new ApiException(400, "field 'chunk' (an object) is required");
    }
    boolean attached = r.attach(a.app(), required(a.node(), "node"), a.step(), new Catalog.NewChunk(
        ChunkId.parse(required(nc.id(), "chunk.id")), nc.holders() == null ? List.of() : nc.holders(), nc.storedBytes(), nc.tags(),
        nc.redundancy()));
    return json(200, new RecordAttach.Answer(attached));
  }

  /** {@code GET /api/v1/sets?app&node}: the sets of this node with parts still to commit. */
  Response sets(String method, Map<String, String> query, Principal who) throws IOException, ApiException {
    requireMethod(method, "GET");
    String app = required(query, "app");
    requireApp(who, app);
    return json(200, catalog.sets().pending(app, required(query, "node")));
  }

  /** {@code GET /api/v1/policy?app} and {@code POST /api/v1/policy}: which folder of the app is stored how. */
  Response policy(String method, Map<String, String> query, byte[] body, Principal who) throws IOException, ApiException {
    if (method.equals("GET")) {
      String app = required(query, "app");
      requireApp(who, app);
      return json(200, new FolderPolicy(app, catalog.policy(app)));
    }
    requireMethod(method, "POST");
    FolderPolicy f = read(body, FolderPolicy.class);
    requireApp(who, f.app());
    catalog.setPolicy(required(f.app(), "app"), required(f.folder(), "folder"));
    return json(200, new FolderPolicy(f.app(), catalog.policy(f.app())));
  }
}
