package org.cairn.cli;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code cairn benchmark}'s place among the commands. The benchmarks are not part of cairn.jar: they are the bench module
 * ({@code org.cairn.bench.BenchmarkCommand}), built into {@value #JAR} beside it. {@link #command(String[])} is what the
 * command line adds under this name: the bench module's command when this class's loader has it (tests, the it module)
 * or {@value #JAR} lies beside the jar (or classes directory) this class came from, loaded then in a loader of its own
 * on top of this one; otherwise this class, which takes any arguments and says in one line how to build the benchmarks.
 * Only a command line that names {@code benchmark} looks: other commands never touch the bench jar.
 */
@Command(name = "benchmark", mixinStandardHelpOptions = true, description = {"Measure the data path on this machine (the bench "
    + "module: " + BenchmarkCommand.JAR + " beside cairn.jar).", "It is not built here: ./mvnw package -pl bench -am builds it."})
final class BenchmarkCommand implements Callable<Integer> {
  /** The bench module's command. */
  static final String IMPLEMENTATION = "org.cairn.bench.BenchmarkCommand";
  /** The bench module's jar, beside cairn.jar. */
  static final String JAR = "cairn-bench.jar";

  @Spec
  CommandSpec spec;

  /** Whatever was given: without the benchmarks there are no options to check them against. */
  @Unmatched
  List<String> given = new ArrayList<>();

  @Override
  public Integer call() {
    spec.commandLine().getErr().println("cairn benchmark: benchmarks are not built: ./mvnw package -pl bench -am");
    return 1;
  }

  /**
   * The command to add as {@code benchmark} to a command line for {@code given}: the bench module's when they name it
   * ({@code cairn benchmark ...}, {@code cairn help benchmark}) or are not known (null: every command), else this class,
   * whose one line in {@code cairn --help} is the same either way: {@code --version}, {@code --help} and typos leave the
   * bench jar alone. The lookup is made once per process.
   */
  static Class<?> command(String[] given) {
    return given == null || java.util.Arrays.asList(given).contains("benchmark") ? Found.COMMAND : BenchmarkCommand.class;
  }

  /** Looked up when first asked for. */
  private static final class Found {
    static final Class<?> COMMAND = BenchJar.load(BenchJar.beside());
  }

  /**
   * Finding and loading the bench module's command; apart from the place-holder, so a command line that only lists it
   * (every command's, for {@code --help} or {@code --version}) links none of this.
   */
  static final class BenchJar {
    private BenchJar() {}

    /** The bench module's command from the place-holder's loader or else {@code jar}, or the place-holder. */
    static Class<?> load(Path jar) {
      ClassLoader here = BenchmarkCommand.class.getClassLoader();
      try {
        return Class.forName(IMPLEMENTATION, false, here);
      } catch (ClassNotFoundException | LinkageError absent) {
        // not on the class path: cairn.jar, which does not carry the benchmarks
      }
      if (jar == null || !Files.isRegularFile(jar)) {
        return BenchmarkCommand.class;
      }
      try {
        URLClassLoader bench = new URLClassLoader("cairn-bench", new URL[] {jar.toUri().toURL()}, here);
        Class<?> command = Class.forName(IMPLEMENTATION, false, bench);
        CommandSpec.forAnnotatedObject(command); // its options' types all resolve: not a jar of an older build of cairn.jar
        return command;
      } catch (IOException | ClassNotFoundException | RuntimeException | LinkageError e) {
        return BenchmarkCommand.class; // not a bench jar of this build: the one-line error says how to build one
      }
    }

    /** {@value BenchmarkCommand#JAR} beside the jar or classes directory cairn's classes were loaded from, or null when not known. */
    static Path beside() {
      try {
        CodeSource code = BenchmarkCommand.class.getProtectionDomain().getCodeSource();
        if (code == null || code.getLocation() == null || !"file".equals(code.getLocation().getProtocol())) {
          return null;
        }
        return Path.of(code.getLocation().toURI()).resolveSibling(JAR);
      } catch (java.net.URISyntaxException | RuntimeException e) {
        return null;
      }
    }
  }
}
