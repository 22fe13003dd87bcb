package org.cairn.cli.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class KernelsTest {
  @Test
  void warm_sealsAndOpensItsRounds() {
    assertThat(Kernels.warm()).isTrue();
  }

  /** Every method the warm-up is there for is one the launcher's JIT file compiles early. */
  @Test
  void jitFile_namesTheIntrinsicsAndTheirCallers() throws Exception {
    String jit = Files.readString(Path.of("src/main/launcher/cairn-oneshot.jit"));
    assertThat(jit.lines().filter(l -> !l.startsWith("#")).findFirst()).contains("quiet");
    assertThat(jit).contains("com.sun.crypto.provider.GHASH::update,").contains("com.sun.crypto.provider.GHASH::processBlocks,")
        .contains("com.sun.crypto.provider.CounterMode::crypt,").contains("com.sun.crypto.provider.CounterMode::implCrypt,")
        .contains("sun.security.provider.DigestBase::implCompressMultiBlock0,");
    // not the single-block methods: C2 compiled their Java bodies early for nothing (docs/benchmarks/journal.md)
    assertThat(jit.lines().filter(l -> !l.startsWith("#")))
        .noneMatch(l -> l.startsWith("CompileThresholdScaling,sun.security.provider.SHA2::implCompress0") || l.contains("AESCrypt::"))
        .contains("MaxNodeLimit,sun.security.provider.SHA2::implCompress0,100");
  }
}
