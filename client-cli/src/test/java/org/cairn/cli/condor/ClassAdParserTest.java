package org.cairn.cli.condor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClassAdParserTest {
  static String resource(String name) throws IOException {
    try (InputStream in = ClassAdParserTest.class.getResourceAsStream("/condor/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void theCurlPluginsResultAdsFromHtcondorsManualParse() throws IOException {
    List<ClassAd> ads = ClassAdParser.parseSequence(resource("curl-results.ad"));
    assertThat(ads).hasSize(2);
    assertThat(ads.get(0).get("transfersuccess")).isEqualTo(new ClassAd.Bool(true));
    assertThat(ads.get(0).string("TRANSFERURL")).isEqualTo("http://cnn.com");
    assertThat(ads.get(0).get("TransferFileBytes")).isEqualTo(new ClassAd.Int(3046790));
    assertThat(ads.get(1).get("ConnectionTimeSeconds")).isEqualTo(new ClassAd.Real(0.0003499999999999996));
    ClassAd developer = ((ClassAd.Nested) ads.get(0).get("DeveloperData")).ad();
    assertThat(developer.string("HttpCacheHitOrMiss")).isEqualTo("HIT");
    assertThat(developer.get("TransferTries")).isEqualTo(new ClassAd.Int(1));
  }

  @Test
  void theCurlPluginsCapabilitiesInTheOldFormParse() throws IOException {
    ClassAd ad = ClassAdParser.parseOld(resource("curl-capabilities.ad"));
    assertThat(ad.get("MultipleFileSupport")).isEqualTo(new ClassAd.Bool(true));
    assertThat(ad.get("ProtocolVersion")).isEqualTo(new ClassAd.Int(2));
    assertThat(ad.string("SupportedMethods")).isEqualTo("http,https,ftp,file,dav,davs");
    assertThat(((ClassAd.Nested) ad.get("CurlPluginInfo")).ad().string("CurlVersion")).isEqualTo("7.15.1");
  }

  @Test
  void adsWrittenWithNoSeparatorAsHtcondorWritesThemParse() {
    List<ClassAd> ads = ClassAdParser.parseSequence("[ Url = \"cairn://a/b\"; LocalFileName = \"/s/b\" ][ Url = \"cairn://a/c\"; LocalFileName = \"/s/c\" ]");
    assertThat(ads).extracting(a -> a.string("url")).containsExactly("cairn://a/b", "cairn://a/c");
  }

  @Test
  void expressionsAreKeptAsTextAndListsAndOtherLiteralsAsValues() {
    ClassAd ad = ClassAdParser.parseSequence("[ a = x + 1; b = { 1, \"two\", [ c = 3 ] }; d = undefined; e = -2.5e3; 'odd name' = \"v\"; "
        + "f = strcat(\"a;]\", \"b\"); g = \"s\" + \"t\" ]").get(0);
    assertThat(ad.get("a")).isEqualTo(new ClassAd.Expr("x + 1"));
    assertThat(ad.get("b")).isEqualTo(new ClassAd.ListValue(List.of(new ClassAd.Int(1), new ClassAd.Str("two"),
        new ClassAd.Nested(new ClassAd().put("c", 3)))));
    assertThat(ad.get("d")).isEqualTo(new ClassAd.Undefined());
    assertThat(ad.get("e")).isEqualTo(new ClassAd.Real(-2500));
    assertThat(ad.string("odd name")).isEqualTo("v");
    assertThat(ad.get("f")).isEqualTo(new ClassAd.Expr("strcat(\"a;]\", \"b\")"));
    assertThat(ad.get("g")).as("not one literal: no string to use").isEqualTo(new ClassAd.Expr("\"s\" + \"t\""));
    assertThat(ad.string("g")).isNull();
  }

  @Test
  void anyStringTheWriterEscapesReadsBackAsItself() {
    Random random = new Random(66);
    for (int i = 0; i < 500; i++) {
      StringBuilder b = new StringBuilder();
      for (int j = random.nextInt(40); j > 0; j--) {
        b.append((char) (random.nextBoolean() ? random.nextInt(0x80) : random.nextInt(0x3000)));
      }
      String text = b.toString();
      ClassAd ad = new ClassAd().put("TransferError", text).put("n", i);
      assertThat(ClassAdParser.parseSequence(ClassAdWriter.write(ad)).get(0).string("TransferError")).isEqualTo(text);
      assertThat(ClassAdParser.parseOld(ClassAdWriter.writeOld(new ClassAd().put("x", text.replace("\n", "")))).string("x"))
          .isEqualTo(text.replace("\n", ""));
    }
  }

  @Test
  void malformedInputIsAMalformedNamingWhereNeverAnotherException() {
    for (String bad : List.of("[ a = \"unterminated ]", "[ a = 1; ", "[ = 1 ]", "[ a 1 ]", "a = 1", "[ a = (1 ]", "[ a = 1 ] ]",
        "[ a = ]", "[ a = 1 /* ]", "[ a = { 1, 2 ]")) {
      assertThatThrownBy(() -> ClassAdParser.parseSequence(bad)).as(bad).isInstanceOf(ClassAdParser.Malformed.class)
          .hasMessageContaining("line 1, column");
    }
    assertThatThrownBy(() -> ClassAdParser.parseOld("Name = 1\nnot an attribute\n")).isInstanceOf(ClassAdParser.Malformed.class)
        .hasMessageContaining("line 2");
  }

  @Test
  void nestingDeeperThanTheLimitIsRefusedNotRecursedInto() {
    String deep = "[ a = " + "{".repeat(100_000) + "}".repeat(100_000) + " ]";
    assertThatThrownBy(() -> ClassAdParser.parseSequence(deep)).isInstanceOf(ClassAdParser.Malformed.class).hasMessageContaining("deeper");
    String ads = "[ a = ".repeat(70) + "1" + " ]".repeat(70);
    assertThatThrownBy(() -> ClassAdParser.parseSequence(ads)).isInstanceOf(ClassAdParser.Malformed.class).hasMessageContaining("deeper");
  }
}
