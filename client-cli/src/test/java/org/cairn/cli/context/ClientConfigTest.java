package org.cairn.cli.context;

import java.nio.file.Files;
import java.nio.file.Path;
import org.cairn.cli.CairnCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClientConfigTest {
  @TempDir
  Path dir;

  private final CommandLine cl = new CommandLine(new CairnCli());

  private Path write(String text) throws Exception {
    return Files.writeString(dir.resolve("client.yaml"), text);
  }

  @Test
  void readsTheTrackerAndTheTokenFile() throws Exception {
    ClientConfig c = ClientConfig.read(write("# where my grid is\ntracker: http://t:7070\ntoken-file: /home/me/grid.token\n"), cl);
    assertThat(c).isEqualTo(new ClientConfig("http://t:7070", "/home/me/grid.token"));
  }

  @Test
  void isEmpty_withoutAFile_orWithOnlyComments() throws Exception {
    assertThat(ClientConfig.read(dir.resolve("absent.yaml"), cl)).isEqualTo(ClientConfig.NONE);
    assertThat(ClientConfig.read(write("# nothing yet\n"), cl)).isEqualTo(ClientConfig.NONE);
    assertThat(ClientConfig.read(write("tracker: http://t:7070\n"), cl).tokenFile()).isNull();
  }

  @Test
  void namesTheFile_forAnUnknownKey_orAValueThatIsNotText() throws Exception {
    Path typo = write("tracker: http://t:7070\ntokenfile: /x\n");
    assertThatThrownBy(() -> ClientConfig.read(typo, cl))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessage("unknown setting 'tokenfile' in " + typo + "; known: [tracker, token-file]");
    Path list = write("tracker: [a, b]\n");
    assertThatThrownBy(() -> ClientConfig.read(list, cl))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageStartingWith("config file " + list + " must map tracker and token-file to text");
    Path broken = write("tracker: \"unclosed\n");
    assertThatThrownBy(() -> ClientConfig.read(broken, cl))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageStartingWith("cannot read config file " + broken);
  }
}
