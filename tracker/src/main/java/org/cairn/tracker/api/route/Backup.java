package org.cairn.tracker.api.route;

import java.io.IOException;
import java.nio.file.Path;
import org.cairn.core.api.catalog.BackupRequest;

/**
 * What {@code POST /api/v1/backup} runs: a backup of the tracker's data directory to a new directory.
 * The tracker's services give it (they own the store); the admin routes only call it.
 */
@FunctionalInterface
public interface Backup {
  BackupRequest.Answer to(Path target) throws IOException;
}
