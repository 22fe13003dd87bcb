package org.cairn.client.mount;

/**
 * A path of the mount, by depth: the root ({@code /}), a node's directory ({@code /NODE}), an entry of
 * a node ({@code /NODE/NAME}: a step, {@code latest}, a {@code .new-STEP} staging directory or a file
 * being written) or something inside an entry ({@code /NODE/NAME/REST}: in a directory version or a
 * staging directory).
 */
record MountPath(String node, String name, String rest) {
  /** Staging directories' prefix: {@code .new-STEP} becomes version STEP when renamed to {@code STEP}. */
  static final String STAGING = ".new-";
  static final String LATEST = "latest";

  static MountPath parse(String path) {
    String p = path.startsWith("/") ? path.substring(1) : path;
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (p.isEmpty()) {
      return new MountPath(null, null, null);
    }
    String[] parts = p.split("/", 3);
    return new MountPath(parts[0], parts.length > 1 ? parts[1] : null, parts.length > 2 ? parts[2] : null);
  }

  boolean isRoot() {
    return node == null;
  }

  boolean isNode() {
    return node != null && name == null;
  }

  boolean isEntry() {
    return name != null && rest == null;
  }

  boolean isInside() {
    return rest != null;
  }

  /** Whether the entry name is a staging directory's. */
  boolean staging() {
    return name != null && name.startsWith(STAGING) && name.length() > STAGING.length();
  }

  /** The entry name as a step number, or -1. */
  long step() {
    return step(name);
  }

  static long step(String name) {
    if (name == null || name.isEmpty() || name.length() > 18 || !name.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    long s = Long.parseLong(name);
    return s > 0 ? s : -1;
  }

  /** The entry's path without what is inside it. */
  MountPath entry() {
    return new MountPath(node, name, null);
  }

  /** This path's name in its parent directory. */
  String last() {
    return rest != null ? rest.substring(rest.lastIndexOf('/') + 1) : name != null ? name : node;
  }
}
