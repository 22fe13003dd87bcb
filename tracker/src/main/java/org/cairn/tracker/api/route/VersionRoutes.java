package org.cairn.tracker.api.route;

import static org.cairn.tracker.api.call.Requests.parseStep;
import static org.cairn.tracker.api.call.Requests.required;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.api.Acknowledged;
import org.cairn.core.api.Endpoints;
import org.cairn.core.api.catalog.CatalogRecordBlob;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.api.catalog.FolderPolicy;
import org.cairn.core.api.catalog.RecordAttach;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.Manifest;
import org.cairn.tracker.api.call.ApiException;
import org.cairn.tracker.api.call.Bindings;
import org.cairn.tracker.api.call.Metrics;
import org.cairn.tracker.auth.Principal;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.catalog.CatalogRecords;
import org.cairn.tracker.catalog.VersionReads;
import org.cairn.tracker.repair.RepairService;

/**
 * Versions: list, commit and delete ({@code /api/v1/versions}), their catalog records on the grid
 * ({@code /api/v1/records}), sets in progress ({@code GET /api/v1/sets}) and apps' folder policies
 * ({@code /api/v1/policy}).
 */
public final class VersionRoutes {
  private final Catalog catalog;
  private final RepairService repair;
  private final Metrics metrics;
  private volatile CatalogRecords records;

  public VersionRoutes(Catalog catalog, RepairService repair, Metrics metrics) {
    this.catalog = catalog;
    this.repair = repair;
    this.metrics = metrics;
  }

  public void setRecords(CatalogRecords records) {
    this.records = records;
  }

  public void bind(Bindings b) {
    b.on(Endpoints.VERSIONS, c -> {
      String app = required(c.query(), "app");
      String node = required(c.query(), "node");
      List<VersionRow> vs = new ArrayList<>();
      for (VersionReads.Listed l : catalog.reads().listed(app, node)) {
        VersionRow v = l.row();
        vs.add(v.withStatus(catalog.soft().isSoft(app, node, v.step()) ? "soft" : repair.status(app, l.chunks())));
      }
      return vs;
    });
    b.on(Endpoints.COMMIT, c -> commit(c.body(), c.who()));
    b.on(Endpoints.DELETE_VERSION, c -> {
      long step = parseStep(required(c.query(), "step"));
      if (!catalog.delete(required(c.query(), "app"), required(c.query(), "node"), step)) {
        throw new ApiException(404, "no such version");
      }
      return new Acknowledged.Deleted(true);
    });
    b.on(Endpoints.RECORD, c -> {
      String app = required(c.query(), "app");
      CatalogRecordBlob blob = records().seal(app, required(c.query(), "node"), parseStep(required(c.query(), "step")));
      if (blob == null) {
        throw new ApiException(404, "no such version");
      }
      return blob;
    });
    b.on(Endpoints.ATTACH_RECORD, c -> attach(c.body()));
    b.on(Endpoints.SETS, c -> catalog.sets().pending(required(c.query(), "app"), required(c.query(), "node")));
    b.on(Endpoints.POLICY, c -> {
      String app = required(c.query(), "app");
      return new FolderPolicy(app, catalog.policy(app));
    });
    b.on(Endpoints.SET_POLICY, c -> {
      FolderPolicy f = c.body();
      catalog.setPolicy(required(f.app(), "app"), required(f.folder(), "folder"));
      return new FolderPolicy(f.app(), catalog.policy(f.app()));
    });
  }

  private CommitRequest.Answer commit(CommitRequest c, Principal who) throws IOException, ApiException {
    if (c.manifest() == null) {
      throw new ApiException(400, "field 'manifest' (an object) is required");
    }
    List<Catalog.NewChunk> chunks = new ArrayList<>();
    for (CommitRequest.NewChunk nc : c.chunks() == null ? List.<CommitRequest.NewChunk>of() : c.chunks()) {
      chunks.add(new Catalog.NewChunk(ChunkId.parse(required(nc.id(), "chunks[].id")),
          nc.holders() == null ? List.of() : nc.holders(), nc.storedBytes(), nc.tags(), nc.redundancy(),
          nc.base() == null ? null : ChunkId.parse(nc.base())));
    }
    if (c.session() != null) {
      catalog.pending().requireOwner(c.session(), c.manifest().app(), who.tokenId()); // another's session is not this commit's
    }
    long step = catalog.commit(c.manifest(), chunks, c.session(), c.soft());
    if (c.session() != null) {
      catalog.pending().close(c.session(), who.tokenId()); // committed: the index now names its pieces
    }
    metrics.committed();
    Manifest.SetPart set = c.manifest().set();
    if (set == null) {
      return new CommitRequest.Answer(c.manifest().app(), c.manifest().node(), step);
    }
    int committed = step > 0 ? set.parts()
        : catalog.sets().progress(c.manifest().app(), c.manifest().node(), set.name()).committed();
    return new CommitRequest.Answer(c.manifest().app(), c.manifest().node(), step, set.name(), set.parts(), committed);
  }

  /** Where records are sealed, or a 503 on a tracker that makes none. */
  private CatalogRecords records() throws ApiException {
    CatalogRecords r = records;
    if (r == null) {
      throw new ApiException(503, "this tracker makes no catalog records");
    }
    return r;
  }

  /**
   * A store puts its version's catalog record on the grid: {@code GET /api/v1/records?app&node&step}
   * seals it, {@code POST /api/v1/records} ({@link RecordAttach}) names its pieces.
   */
  private RecordAttach.Answer attach(RecordAttach a) throws IOException, ApiException {
    CatalogRecords r = records();
    required(a.app(), "app");
    CommitRequest.NewChunk nc = a.chunk();
    if (nc == null) {
      throw new ApiException(400, "field 'chunk' (an object) is required");
    }
    boolean attached = r.attach(a.app(), required(a.node(), "node"), a.step(), new Catalog.NewChunk(
        ChunkId.parse(required(nc.id(), "chunk.id")), nc.holders() == null ? List.of() : nc.holders(), nc.storedBytes(), nc.tags(),
        nc.redundancy()));
    return new RecordAttach.Answer(attached);
  }
}
