package org.cairn.client.mount;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.struct.FileStat;

/** Fills the kernel's {@code stat} for the mount's directories, version files, the {@code latest} link and local files. */
final class Attributes {
  /** Whom the mount reports as owning its files: the user who mounted it. */
  record Owner(int uid, int gid) {
    /** This process's user and group. */
    static Owner current() {
      com.sun.security.auth.module.UnixSystem me = new com.sun.security.auth.module.UnixSystem();
      return new Owner((int) me.getUid(), (int) me.getGid());
    }
  }

  void directory(FileStat st, int mode, int uid, int gid, long millis) {
    common(st, FileStat.S_IFDIR | mode, 0, uid, gid, millis);
    st.st_nlink.set(2);
  }

  void file(FileStat st, int mode, long size, int uid, int gid, long millis) {
    common(st, FileStat.S_IFREG | mode, size, uid, gid, millis);
  }

  void link(FileStat st, long size, int uid, int gid, long millis) {
    common(st, FileStat.S_IFLNK | 0777, size, uid, gid, millis);
  }

  /** A local file or directory's attributes; {@code readOnly} (a fetched version) drops the write bits. */
  int local(FileStat st, Path f, boolean readOnly, int uid, int gid) throws IOException {
    PosixFileAttributes a;
    try {
      a = Files.readAttributes(f, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return -ErrorCodes.ENOENT();
    }
    int mode = 0;
    for (PosixFilePermission p : a.permissions()) {
      mode |= 1 << (8 - p.ordinal());
    }
    if (readOnly) {
      mode &= ~0222;
    }
    int type = a.isDirectory() ? FileStat.S_IFDIR : a.isSymbolicLink() ? FileStat.S_IFLNK : FileStat.S_IFREG;
    common(st, type | mode, a.size(), uid, gid, a.lastModifiedTime().toMillis());
    st.st_nlink.set(a.isDirectory() ? 2 : 1);
    return 0;
  }

  private static void common(FileStat st, int mode, long size, int uid, int gid, long millis) {
    st.st_mode.set(mode);
    st.st_size.set(size);
    st.st_blocks.set((size + 511) / 512);
    st.st_nlink.set(1);
    st.st_uid.set(uid);
    st.st_gid.set(gid);
    st.st_mtim.tv_sec.set(millis / 1000);
    st.st_mtim.tv_nsec.set((millis % 1000) * 1_000_000);
    st.st_ctim.tv_sec.set(millis / 1000);
    st.st_atim.tv_sec.set(millis / 1000);
  }
}
