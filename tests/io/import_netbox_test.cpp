// The NetBox kinds: /api/ipam/prefixes/ (netbox, JSON) and the prefix list's
// CSV export (netbox-csv). Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include <gtest/gtest.h>

namespace cidrcheck {
namespace {

using namespace cidrcheck::test;

const std::string json_page = fixtures + "netbox/prefixes.json";
const std::string csv_export = fixtures + "netbox/prefixes.csv";

// The owners both exports of the same NetBox (prefixes.json, prefixes.csv) give.
const v owners_of_both = {"10.0.0.0/8",     "172.16.0.0/12",     "prod (65000:100)/10.20.0.0/16",
                          "mgmt/192.168.0.0/16", "fd12:3456:789a::/48"};

TEST(ImportNetbox, APrefixNoOtherContainsIsANetworkOfItsVrf) {
  auto r = load({{import_kind::netbox, "netbox/prefixes.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(names(r), owners_of_both);
  EXPECT_EQ(cidrs(r, "10.0.0.0/8", range_role::external), (v{"10.0.0.0/8"}));
  EXPECT_EQ(cidrs(r, "prod (65000:100)/10.20.0.0/16", range_role::external), (v{"10.20.0.0/16"}));
  EXPECT_EQ(cidrs(r, "fd12:3456:789a::/48", range_role::external), (v{"fd12:3456:789a::/48"}));
  const auto& o = owner_of(r, "10.0.0.0/8");
  EXPECT_EQ(o.kind, owner_kind::network);
  EXPECT_EQ(o.type, "netbox-prefix");
  EXPECT_EQ(o.where, (source_location{json_page, 6, 5}));
  EXPECT_EQ(range_at(r, "10.0.0.0/8", "10.0.0.0/8")->where, (source_location{json_page, 15, 17}));
}

TEST(ImportNetbox, StatusRoleScopeAndTenantAreInTheDescription) {
  auto r = load({{import_kind::netbox, "netbox/prefixes.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // A container: its status, and how many prefixes lie inside it (the duplicate counts once).
  EXPECT_EQ(owner_of(r, "10.0.0.0/8").description,
            "NetBox prefix #1 \"RFC 1918 space for data centres\" (status Container, 4 prefixes inside), from "
            "/api/ipam/prefixes/");
  // NetBox 4.2's scope: a region, named by its type.
  EXPECT_EQ(owner_of(r, "mgmt/192.168.0.0/16").description,
            "NetBox prefix #8 \"Out-of-band management\" (status Container, role Management, region Europe, tenant "
            "NetOps, 1 prefix inside), from /api/ipam/prefixes/");
  EXPECT_EQ(owner_of(r, "prod (65000:100)/10.20.0.0/16").description,
            "NetBox prefix #7 \"Node network, VRF prod\" (status Active, role Nodes, site ams1, tenant Platform), "
            "from /api/ipam/prefixes/");
}

TEST(ImportNetbox, AChildInsideItsContainerIsNoOverlap) {
  auto r = load({{import_kind::netbox, "netbox/prefixes.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // 10.20.0.0/16 and 10.20.64.0/18 lie inside 10.0.0.0/8: allocations of it, no owners of their own.
  EXPECT_EQ(range_at(r, "10.0.0.0/8", "10.20.64.0/18"), nullptr);
  for (const auto& f : check(r.value, builtin_catalog())) {
    EXPECT_NE(f.id, rule::overlap) << f.message;
    EXPECT_NE(f.id, rule::overlap_internal) << f.message;
  }
}

TEST(ImportNetbox, PrefixesOfDifferentVrfsNeverConflict) {
  auto r = load({{import_kind::netbox, "netbox/prefixes.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // 10.20.0.0/16 is in the global table (inside 10.0.0.0/8) and in VRF prod:
  // two routing domains, which no connection joins, so at most a latent overlap.
  std::vector<std::string> latent;
  for (const auto& f : check(r.value, builtin_catalog())) {
    EXPECT_NE(f.level, severity::error) << f.message;
    if (f.id == rule::latent_overlap) latent.push_back(f.message);
  }
  ASSERT_EQ(latent.size(), 1u);
  EXPECT_NE(latent[0].find("prod (65000:100)/10.20.0.0/16"), std::string::npos) << latent[0];
}

TEST(ImportNetbox, ADuplicatePrefixInOneVrfIsAWarningAtTheRepeat) {
  auto r = load({{import_kind::netbox, "netbox/prefixes.json"}});
  auto duplicates = with_code(r, diag::duplicate_prefix);
  ASSERT_EQ(duplicates.size(), 1u) << printed(r);
  EXPECT_EQ(duplicates[0].level, severity::warning);
  EXPECT_EQ(duplicates[0].message,
            "netbox: prefix 10.30.0.0/16 (#11) is listed twice in the global table: a duplicate prefix; cidrcheck "
            "reads it once");
  EXPECT_EQ(duplicates[0].where, (source_location{json_page, 206, 17}));
  ASSERT_EQ(duplicates[0].notes.size(), 1u);
  EXPECT_EQ(duplicates[0].notes[0].message, "10.30.0.0/16 is first listed here (#4)");
  EXPECT_EQ(duplicates[0].notes[0].where, (source_location{json_page, 153, 17}));
}

TEST(ImportNetbox, EveryPageInOneArrayIsOneHierarchy) {
  auto r = load({{import_kind::netbox, "netbox/pages.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // 10.96.0.0/12, on the second page, lies inside 10.0.0.0/8 of the first.
  EXPECT_EQ(names(r), (v{"10.0.0.0/8", "100.64.0.0/10"}));
  EXPECT_TRUE(with_code(r, diag::incomplete_export).empty()) << printed(r);
  // NetBox 3.x: a site, no scope.
  EXPECT_EQ(owner_of(r, "10.0.0.0/8").description,
            "NetBox prefix #1 \"RFC 1918 space for data centres\" (status Container, 3 prefixes inside), from "
            "/api/ipam/prefixes/");
}

TEST(ImportNetbox, APageWithoutTheOthersIsAWarning) {
  auto r = load({{import_kind::netbox, "netbox/page-1-of-2.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  auto missing = with_code(r, diag::incomplete_export);
  ASSERT_EQ(missing.size(), 1u) << printed(r);
  EXPECT_EQ(missing[0].level, severity::warning);
  EXPECT_EQ(missing[0].where, (source_location{fixtures + "netbox/page-1-of-2.json", 2, 12}));
  EXPECT_EQ(missing[0].message,
            "netbox: the export lists 3 of the 5 prefixes NetBox counted: pages are missing; give every page in one "
            "file (a JSON array of the pages), as docs/import/netbox.md shows");
}

TEST(ImportNetbox, APageGivenTwiceIsReadOnce) {
  std::string page = R"({"count": 2, "next": null, "previous": null, "results": [
  {"id": 1, "prefix": "10.0.0.0/16", "vrf": null, "status": {"value": "active", "label": "Active"}},
  {"id": 2, "prefix": "10.1.0.0/16", "vrf": null}]})";
  auto r = load_text(import_kind::netbox, "[" + page + ",\n" + page + "]");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(names(r), (v{"10.0.0.0/16", "10.1.0.0/16"}));
  auto repeated = with_code(r, diag::duplicate_prefix);
  ASSERT_EQ(repeated.size(), 2u) << printed(r);
  EXPECT_EQ(repeated[0].message,
            "netbox: prefix #1 (10.0.0.0/16) is listed twice: is a page of the export given twice? cidrcheck reads it "
            "once");
  EXPECT_EQ(repeated[0].where.line, 5u);  // the second page starts on line 4
  EXPECT_EQ(repeated[0].notes[0].where.line, 2u);
  EXPECT_TRUE(with_code(r, diag::incomplete_export).empty()) << printed(r);
}

TEST(ImportNetbox, AListOfPrefixesAndOnePrefixReadToo) {
  // `jq '.results'` of a page, and /api/ipam/prefixes/ID/; the VRF without an rd is its name.
  auto list = load_text(import_kind::netbox,
                        R"([{"prefix": "10.9.0.0/16", "vrf": {"id": 3, "name": "lab", "rd": null}},
                            {"prefix": "10.9.4.0/24", "vrf": {"id": 3, "name": "lab", "rd": null}}])");
  ASSERT_TRUE(list.ok()) << printed(list);
  EXPECT_EQ(names(list), (v{"lab/10.9.0.0/16"}));
  auto one = load_text(import_kind::netbox, R"({"id": 5, "prefix": "fd00:10::/48", "vrf": null})");
  ASSERT_TRUE(one.ok()) << printed(one);
  EXPECT_EQ(names(one), (v{"fd00:10::/48"}));
  // A VRF with neither name nor display is named by its id: still not the global table.
  auto bare = load_text(import_kind::netbox, R"([{"prefix": "10.9.0.0/16", "vrf": {"id": 3}},
                                                 {"prefix": "10.9.0.0/16", "vrf": null}])");
  ASSERT_TRUE(bare.ok()) << printed(bare);
  EXPECT_EQ(names(bare), (v{"#3/10.9.0.0/16", "10.9.0.0/16"}));
}

TEST(ImportNetbox, BadPrefixesAreErrorsAtTheirCharacter) {
  auto r = load({{import_kind::netbox, "netbox/bad-prefix.json"}});
  ASSERT_FALSE(r.ok());
  const std::string file = fixtures + "netbox/bad-prefix.json";
  EXPECT_EQ(printed(r),
            file + ":15:18: error: netbox: prefix: invalid prefix \"10.40.1.0/16\": host bits set (did you mean "
                   "10.40.0.0/16?)\n" +
                file + ":47:24: error: netbox: prefix: invalid prefix \"10.40.300.0/24\": octet out of range (at "
                       "\"300.0/24\")\n" +
                file + ":70:5: error: netbox: a prefix object without a prefix\n");
}

TEST(ImportNetbox, AnotherDocumentNamesWhatTheKindReads) {
  auto r = load_text(import_kind::netbox, R"({"Vpcs": []})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(codes(r), (strings{"import-format"}));
  EXPECT_NE(r.diagnostics[0].message.find("a page of /api/ipam/prefixes/ (a mapping with results)"), std::string::npos)
      << printed(r);
}

TEST(ImportNetboxCsv, ReadsTheSameOwnersAsTheApi) {
  auto csv = load({{import_kind::netbox_csv, "netbox/prefixes.csv"}});
  ASSERT_TRUE(csv.ok()) << printed(csv);
  auto api = load({{import_kind::netbox, "netbox/prefixes.json"}});
  EXPECT_EQ(names(csv), owners_of_both);
  for (const auto& name : owners_of_both) {
    EXPECT_EQ(cidrs(csv, name, range_role::external), cidrs(api, name, range_role::external)) << name;
  }
  // The scope's type as the export writes it (dcim.region), a status label, a
  // description with a comma and quotes: all as the API gives them.
  EXPECT_EQ(owner_of(csv, "mgmt/192.168.0.0/16").description,
            "NetBox prefix #8 \"Out-of-band management\" (status Container, role Management, region Europe, tenant "
            "NetOps, 1 prefix inside), from NetBox's CSV export");
  EXPECT_EQ(owner_of(csv, "172.16.0.0/12").description,
            "NetBox prefix #6 \"old office space, \"the big one\"\" (status Deprecated), from NetBox's CSV export");
}

TEST(ImportNetboxCsv, PositionsCountLinesInsideQuotedFieldsAndSkipTheByteOrderMark) {
  auto r = load({{import_kind::netbox_csv, "netbox/prefixes.csv"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // Row 2 (line 3) has a two-line Comments field: row 3 starts on line 5.
  EXPECT_EQ(owner_of(r, "10.0.0.0/8").where, (source_location{csv_export, 2, 1}));
  EXPECT_EQ(range_at(r, "10.0.0.0/8", "10.0.0.0/8")->where, (source_location{csv_export, 2, 3}));
  EXPECT_EQ(range_at(r, "10.0.0.0/8", "10.0.0.0/8")->end_column, 13u);
  auto duplicates = with_code(r, diag::duplicate_prefix);
  ASSERT_EQ(duplicates.size(), 1u) << printed(r);
  EXPECT_EQ(duplicates[0].where, (source_location{csv_export, 7, 4}));
  EXPECT_EQ(duplicates[0].notes[0].where, (source_location{csv_export, 6, 3}));
}

TEST(ImportNetboxCsv, OlderExportsWithDepthMarksAndBlanksRead) {
  // NetBox 3.x's current view: Prefix and VRF cells rendered from templates,
  // over several lines, with a "•" per depth level; a Site column.
  auto r = load({{import_kind::netbox_csv, "netbox/prefixes-v3.csv"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(names(r), (v{"10.0.0.0/8", "prod (65000:100)/10.20.0.0/16"}));
  EXPECT_EQ(owner_of(r, "prod (65000:100)/10.20.0.0/16").description,
            "NetBox prefix \"Node network, VRF prod\" (status Active, role Nodes, site ams1, tenant Platform), from "
            "NetBox's CSV export");
  // A multi-line cell: the range is placed at its field's start.
  EXPECT_EQ(range_at(r, "10.0.0.0/8", "10.0.0.0/8")->where, (source_location{fixtures + "netbox/prefixes-v3.csv", 2, 1}));
}

TEST(ImportNetboxCsv, MalformedRowsAreErrorsAtTheirPosition) {
  auto r = load({{import_kind::netbox_csv, "netbox/bad.csv"}});
  ASSERT_FALSE(r.ok());
  const std::string file = fixtures + "netbox/bad.csv";
  EXPECT_EQ(printed(r),
            file + ":2:4: error: netbox-csv: Prefix: invalid prefix \"10.50.1.0/16\": host bits set (did you mean "
                   "10.50.0.0/16?)\n" +
                file + ":3:15: error: netbox-csv: Prefix: invalid prefix \"10.50.0.0/33\": prefix length out of range (at "
                       "\"33\")\n" +
                file + ":4:1: error: netbox-csv: invalid CSV: this row has 6 fields, the header 5\n" +
                file + ":5:25: error: netbox-csv: invalid CSV: text after a field's closing quote (a quote inside a "
                       "quoted field is written \"\")\n" +
                file + ":6:4: error: netbox-csv: a row without a prefix\n" +
                file + ":7:1: error: netbox-csv: ID must be a whole number, not \"x35\"\n");
  // The rows around the bad ones are read.
  EXPECT_EQ(names(r), (v{"10.52.0.0/16", "10.53.0.0/16", "10.54.0.0/16"}));
}

TEST(ImportNetboxCsv, AQuotedFieldThatNeverEndsIsAnErrorAtItsQuote) {
  auto r = load({{import_kind::netbox_csv, "netbox/unterminated.csv"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(printed(r), fixtures + "netbox/unterminated.csv:2:24: error: netbox-csv: invalid CSV: a quoted field that "
                                   "never ends (the file ends inside it)\n");
}

TEST(ImportNetboxCsv, AnotherExportNamesItsColumns) {
  auto r = load({{import_kind::netbox_csv, "netbox/ip-addresses.csv"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(codes(r), (strings{"missing-key"}));
  EXPECT_EQ(r.diagnostics[0].where, (source_location{fixtures + "netbox/ip-addresses.csv", 1, 1}));
  EXPECT_EQ(r.diagnostics[0].message,
            "netbox-csv: expected the CSV export of NetBox's prefix list (Prefixes, Export, All data (CSV)), whose "
            "header names a Prefix column; this header has: \"ID\", \"IP Address\", \"VRF\", \"Status\", \"Role\", "
            "\"Tenant\", \"Assigned\", \"DNS Name\", \"Description\" (column names are compared in English)");
}

TEST(ImportNetboxCsv, ImportFormatHeadersAndLineEndsRead) {
  // NetBox's import format names columns by field (lower case, scope_type);
  // LF, CRLF and a last row without a line break all end rows.
  auto r = load_text(import_kind::netbox_csv,
                     "prefix,vrf,status,scope_type,scope,description\n10.1.0.0/16,,active,dcim.site,ams1,a\r\n"
                     "10.2.0.0/16,,active,,,\"b,\r\nc\"",
                     "import.csv");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(names(r), (v{"10.1.0.0/16", "10.2.0.0/16"}));
  EXPECT_EQ(owner_of(r, "10.1.0.0/16").description,
            "NetBox prefix \"a\" (status active, site ams1), from NetBox's CSV export");
  EXPECT_EQ(owner_of(r, "10.2.0.0/16").description, "NetBox prefix \"b,\r\nc\" (status active), from NetBox's CSV export");
}

TEST(ImportNetboxCsv, BytesThatAreNotUtf8AreAnErrorAtTheFirst) {
  auto r = load_text(import_kind::netbox_csv, "Prefix,Description\n10.0.0.0/8,caf\xE9\n", "latin1.csv");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(printed(r), "latin1.csv:2:15: error: netbox-csv: invalid CSV: a byte that is not UTF-8; save the export as "
                        "UTF-8\n");
}

// Two columns of one name: an error at the second when cidrcheck reads that column (which of the two
// to read would be a guess); a repeated column it does not read changes nothing.
TEST(ImportNetboxCsv, AColumnItReadsNamedTwiceIsAnError) {
  auto r = load_text(import_kind::netbox_csv, "Prefix,Status,Description,status\n10.0.0.0/8,Active,a,Reserved\n",
                     "twice.csv");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(printed(r), "twice.csv:1:27: error: netbox-csv: the header names the column status twice (fields 2 and 4); "
                        "cidrcheck reads that column and cannot tell which of the two to read\n");
  auto unread = load_text(import_kind::netbox_csv, "Prefix,Tags,Tags\n10.0.0.0/8,a,b\n", "tags.csv");
  EXPECT_TRUE(unread.ok()) << printed(unread);
}

TEST(ImportNetboxCsv, EmptyFilesAndHeadersAlone) {
  auto empty = load_text(import_kind::netbox_csv, "\xEF\xBB\xBF\r\n", "empty.csv");
  EXPECT_EQ(codes(empty), (strings{"empty-input"}));
  auto header = load_text(import_kind::netbox_csv, "ID,Prefix,Status\r\n", "header.csv");
  EXPECT_EQ(codes(header), (strings{"import-empty", "empty-input"}));  // and the fleet is empty
}

}  // namespace
}  // namespace cidrcheck
