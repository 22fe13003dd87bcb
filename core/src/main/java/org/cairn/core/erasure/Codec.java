package org.cairn.core.erasure;

/** The redundancy codecs, with the byte ids stored in fragment headers and the names used in specs. */
public enum Codec {
  /** r full copies: {@code replicate:r}. */
  REPLICATE(0, "replicate"),
  /** Vandermonde Reed-Solomon, the reference construction: {@code code:m+k}. */
  REED_SOLOMON(1, "code"),
  /** XOR-only Cauchy Reed-Solomon: {@code cauchy:m+k}. */
  CAUCHY(2, "cauchy");

  private final int id;
  private final String specName;

  Codec(int id, String specName) {
    this.id = id;
    this.specName = specName;
  }

  public int id() {
    return id;
  }

  public String specName() {
    return specName;
  }

  public static Codec fromId(int id) {
    for (Codec c : values()) {
      if (c.id == id) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown codec id " + id);
  }
}
