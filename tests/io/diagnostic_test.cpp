#include <cidrcheck/io/diagnostic.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cidrcheck {
namespace {

TEST(Diagnostic, FormatsGnuStyleLinesWithNotes) {
  diagnostic d{severity::error, "duplicate-name", "duplicate name 'a'", {"f.yaml", 7, 13}, {}};
  d.notes.push_back({severity::note, "", "'a' is first declared here", {"f.yaml", 3, 13}, {}});
  EXPECT_EQ(format_diagnostic(d), "f.yaml:7:13: error: duplicate name 'a'\nf.yaml:3:13: note: 'a' is first declared here\n");
}

TEST(Diagnostic, WithoutAFileTheLineStartsWithTheProgram) {
  const diagnostic d{severity::warning, "empty-input", "no clusters or networks in the input", {}, {}};
  EXPECT_EQ(format_diagnostic(d), "cidrcheck: warning: no clusters or networks in the input\n");
}

TEST(Diagnostic, EscapesControlCharactersSoEachDiagnosticIsOneLine) {
  const diagnostic d{severity::error, "invalid-name", "invalid name \"a\nb\x1b[31m\"", {"f\n.yaml", 1, 1}, {}};
  auto text = format_diagnostic(d);
  EXPECT_EQ(text.find('\n'), text.size() - 1) << text;  // one line
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find("::"), std::string::npos) << text;
}

TEST(Diagnostic, HasErrorsCountsErrorsOnly) {
  std::vector<diagnostic> ds;
  EXPECT_FALSE(has_errors(ds));
  ds.push_back({severity::warning, "w", "w", {}, {}});
  ds.push_back({severity::note, "n", "n", {}, {}});
  EXPECT_FALSE(has_errors(ds));
  ds.push_back({severity::error, "e", "e", {}, {}});
  EXPECT_TRUE(has_errors(ds));
}

}  // namespace
}  // namespace cidrcheck
