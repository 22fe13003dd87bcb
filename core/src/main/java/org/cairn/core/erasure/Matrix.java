package org.cairn.core.erasure;

import java.util.Arrays;

/** A small dense matrix over GF(2^8): construction, product, sub-matrix and Gauss-Jordan inverse. */
final class Matrix {
  private final int rows;
  private final int cols;
  private final byte[][] data;

  Matrix(int rows, int cols) {
    if (rows <= 0 || cols <= 0) {
      throw new IllegalArgumentException("matrix dimensions must be positive, were " + rows + "x" + cols);
    }
    this.rows = rows;
    this.cols = cols;
    this.data = new byte[rows][cols];
  }

  static Matrix identity(int size) {
    Matrix m = new Matrix(size, size);
    for (int i = 0; i < size; i++) {
      m.data[i][i] = 1;
    }
    return m;
  }

  /** Rows r^c for r = 0..rows-1, c = 0..cols-1: any cols of its rows are linearly independent. */
  static Matrix vandermonde(int rows, int cols) {
    Matrix m = new Matrix(rows, cols);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
        m.data[r][c] = (byte) GaloisField.power(r, c);
      }
    }
    return m;
  }

  /** Cauchy matrix 1 / (x_i + y_j) with x_i = i + cols, y_j = j: every square sub-matrix is invertible. */
  static Matrix cauchy(int rows, int cols) {
    if (rows + cols > 256) {
      throw new IllegalArgumentException("a Cauchy matrix over GF(2^8) needs rows + cols <= 256, was " + (rows + cols));
    }
    Matrix m = new Matrix(rows, cols);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
        m.data[r][c] = (byte) GaloisField.inverse((r + cols) ^ c);
      }
    }
    return m;
  }

  int rows() {
    return rows;
  }

  int cols() {
    return cols;
  }

  int get(int r, int c) {
    return data[r][c] & 0xFF;
  }

  void set(int r, int c, int value) {
    data[r][c] = (byte) value;
  }

  /** A copy of row r. */
  byte[] row(int r) {
    return data[r].clone();
  }

  Matrix times(Matrix right) {
    if (cols != right.rows) {
      throw new IllegalArgumentException("cannot multiply " + rows + "x" + cols + " by " + right.rows + "x" + right.cols);
    }
    Matrix out = new Matrix(rows, right.cols);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < right.cols; c++) {
        int v = 0;
        for (int i = 0; i < cols; i++) {
          v ^= GaloisField.multiply(data[r][i], right.data[i][c]);
        }
        out.data[r][c] = (byte) v;
      }
    }
    return out;
  }

  Matrix subMatrix(int rowFrom, int colFrom, int rowTo, int colTo) {
    Matrix out = new Matrix(rowTo - rowFrom, colTo - colFrom);
    for (int r = rowFrom; r < rowTo; r++) {
      System.arraycopy(data[r], colFrom, out.data[r - rowFrom], 0, colTo - colFrom);
    }
    return out;
  }

  /** The matrix made of the given rows of this one, in that order. */
  Matrix selectRows(int[] rowIndexes) {
    Matrix out = new Matrix(rowIndexes.length, cols);
    for (int i = 0; i < rowIndexes.length; i++) {
      System.arraycopy(data[rowIndexes[i]], 0, out.data[i], 0, cols);
    }
    return out;
  }

  /** Gauss-Jordan elimination; throws if the matrix is singular. */
  Matrix invert() {
    if (rows != cols) {
      throw new IllegalArgumentException("only square matrices invert, this is " + rows + "x" + cols);
    }
    int n = rows;
    byte[][] work = new byte[n][2 * n];
    for (int r = 0; r < n; r++) {
      System.arraycopy(data[r], 0, work[r], 0, n);
      work[r][n + r] = 1;
    }
    for (int c = 0; c < n; c++) {
      if (work[c][c] == 0) {
        int swap = c + 1;
        while (swap < n && work[swap][c] == 0) {
          swap++;
        }
        if (swap == n) {
          throw new IllegalStateException("matrix is singular");
        }
        byte[] t = work[c];
        work[c] = work[swap];
        work[swap] = t;
      }
      int scale = GaloisField.inverse(work[c][c] & 0xFF);
      if (scale != 1) {
        byte[] mul = GaloisField.MUL[scale];
        for (int i = 0; i < 2 * n; i++) {
          work[c][i] = mul[work[c][i] & 0xFF];
        }
      }
      for (int r = 0; r < n; r++) {
        int factor = work[r][c] & 0xFF;
        if (r != c && factor != 0) {
          byte[] mul = GaloisField.MUL[factor];
          for (int i = 0; i < 2 * n; i++) {
            work[r][i] ^= mul[work[c][i] & 0xFF];
          }
        }
      }
    }
    Matrix out = new Matrix(n, n);
    for (int r = 0; r < n; r++) {
      System.arraycopy(work[r], n, out.data[r], 0, n);
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Matrix && Arrays.deepEquals(data, ((Matrix) o).data);
  }

  @Override
  public int hashCode() {
    return Arrays.deepHashCode(data);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (byte[] row : data) {
      for (byte b : row) {
        sb.append(String.format("%02x ", b & 0xFF));
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
