package org.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** How {@code cairn benchmark} finds the bench module, and what it says without it (the benchmarks' own tests are in bench). */
class BenchmarkCommandTest {
  @TempDir
  Path tmp;

  @Test
  void withoutTheBenchJar_theCommandIsThePlaceHolder() {
    assertThat(BenchmarkCommand.BenchJar.load(tmp.resolve(BenchmarkCommand.JAR))).isEqualTo(BenchmarkCommand.class);
    assertThat(BenchmarkCommand.BenchJar.load(null)).isEqualTo(BenchmarkCommand.class);
  }

  @Test
  void aCommandLineThatDoesNotNameBenchmark_leavesTheBenchJarAlone() {
    assertThat(BenchmarkCommand.command(new String[] {"--version"})).isEqualTo(BenchmarkCommand.class);
    assertThat(BenchmarkCommand.command(new String[] {"--help"})).isEqualTo(BenchmarkCommand.class);
    assertThat(BenchmarkCommand.command(new String[] {"store", "img", "--app", "a"})).isEqualTo(BenchmarkCommand.class);
  }

  @Test
  void thePlaceHolder_takesAnyArguments_andSaysInOneLineHowToBuildTheBenchmarks() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(BenchmarkCommand.class);
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute("e2e", "--data-shards", "4", "--json");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString().strip()).isEqualTo("cairn benchmark: benchmarks are not built: ./mvnw package -pl bench -am");
  }

  @Test
  void thePlaceHoldersHelp_saysHowToBuildTheBenchmarks() {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(BenchmarkCommand.class);
    cli.setOut(new PrintWriter(out, true));
    assertThat(cli.execute("e2e", "--help")).isZero();
    assertThat(out.toString()).contains("./mvnw package -pl bench -am");
  }

  @Test
  void aBenchJarBesideCairnJar_isLoadedInALoaderOfItsOwn() throws Exception {
    Path jar = jarWith("package org.cairn.bench; @picocli.CommandLine.Command(name = \"benchmark\") "
        + "public final class BenchmarkCommand implements Runnable { public void run() {} }");
    Class<?> command = BenchmarkCommand.BenchJar.load(jar);
    assertThat(command.getName()).isEqualTo(BenchmarkCommand.IMPLEMENTATION);
    assertThat(command.getClassLoader()).isNotSameAs(BenchmarkCommand.class.getClassLoader());
    assertThat(command.getClassLoader().getParent()).isSameAs(BenchmarkCommand.class.getClassLoader());
  }

  @Test
  void aFileThatIsNotABenchJar_leavesThePlaceHolder() throws Exception {
    Path notAJar = Files.writeString(tmp.resolve(BenchmarkCommand.JAR), "not a jar");
    assertThat(BenchmarkCommand.BenchJar.load(notAJar)).isEqualTo(BenchmarkCommand.class);
  }

  @Test
  void theBenchJarIsLookedForBesideWhatThisCodeWasLoadedFrom() {
    Path beside = BenchmarkCommand.BenchJar.beside();
    assertThat(beside).isNotNull();
    assertThat(beside.getFileName().toString()).isEqualTo(BenchmarkCommand.JAR);
    assertThat(beside.getParent().resolve("classes")).isDirectory(); // target/classes here; cairn.jar's directory in the build
  }

  /** A jar holding {@code source} (one class) compiled with this test's class path. */
  private Path jarWith(String source) throws Exception {
    Path src = Files.createDirectories(tmp.resolve("src/org/cairn/bench")).resolve("BenchmarkCommand.java");
    Files.writeString(src, source);
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null, "-cp", System.getProperty("java.class.path"), "-d", classes.toString(), src.toString());
    assertThat(rc).as("javac").isZero();
    Path jar = tmp.resolve(BenchmarkCommand.JAR);
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (String name : List.of("org/cairn/bench/BenchmarkCommand.class")) {
        out.putNextEntry(new JarEntry(name));
        out.write(Files.readAllBytes(classes.resolve(name)));
        out.closeEntry();
      }
    }
    assertThat(new String(Files.readAllBytes(jar), 0, 2, StandardCharsets.ISO_8859_1)).isEqualTo("PK");
    return jar;
  }
}
