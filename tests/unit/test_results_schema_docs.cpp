// docs/kbench.results-1.schema.json and docs/json-schema.md against the writer: the schema lists
// exactly the keys a fully populated document has, the docs page names each of them in its section,
// and its tables give each key the schema's type, so a key added to the writer without the schema
// and the docs fails here (the writer's values against the schema's types: the jsonschema
// validation in test_report_json.cpp).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "report/json_report.hpp"
#include "results_json_fixture.hpp"

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

std::string source_file(const std::string& relative) {
  std::ifstream in(std::filesystem::path(KBENCH_SOURCE_DIR) / relative);
  REQUIRE_MESSAGE(in, relative);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string joined(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

// A result's properties are the backend's own keys, free-form in the schema and the docs.
constexpr const char* kFreeForm = "results[].properties";

// Every key path of a document: "results[].verification.error_bound.lambda".
void document_keys(const ordered_json& value, const std::string& path, std::set<std::string>& keys) {
  if (path == kFreeForm) return;
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) {
      keys.insert(joined(path, key));
      document_keys(child, joined(path, key), keys);
    }
  } else if (value.is_array()) {
    for (const ordered_json& element : value) document_keys(element, path + "[]", keys);
  }
}

// Every key path the schema describes, following $ref, oneOf/anyOf branches and array items.
void schema_keys(const json& schema, const json& node, const std::string& path, std::set<std::string>& keys) {
  if (path == kFreeForm) return;
  if (node.contains("$ref")) {
    const std::string ref = node["$ref"];
    REQUIRE_MESSAGE(ref.starts_with("#/$defs/"), ref);
    schema_keys(schema, schema["$defs"][ref.substr(8)], path, keys);
  }
  for (const char* branches : {"oneOf", "anyOf"})
    if (node.contains(branches))
      for (const json& branch : node[branches]) schema_keys(schema, branch, path, keys);
  if (node.contains("properties"))
    for (const auto& [key, child] : node["properties"].items()) {
      keys.insert(joined(path, key));
      schema_keys(schema, child, joined(path, key), keys);
    }
  if (node.contains("items")) schema_keys(schema, node["items"], path + "[]", keys);
}

std::set<std::string> writer_keys() {
  std::set<std::string> keys;
  std::vector<kbench::RunReport> reports = kbench::test::minimal_reports();
  reports.push_back(kbench::test::fully_populated_report());
  for (const kbench::RunReport& report : reports) document_keys(kbench::report_to_json(report), "", keys);
  return keys;
}

std::set<std::string> missing_from(const std::set<std::string>& these, const std::set<std::string>& from) {
  std::set<std::string> missing;
  for (const std::string& key : these)
    if (!from.contains(key)) missing.insert(key);
  return missing;
}

std::string listed(const std::set<std::string>& keys) {
  std::string out;
  for (const std::string& key : keys) out += "\n  " + key;
  return out;
}

// The docs section that describes the keys under a path: the longest prefix listed here.
const std::vector<std::pair<std::string, std::string>> kSections = {
    {"", "## Top level"},
    {"peaks.", "## peaks"},
    {"settings.", "## settings"},
    {"workloads[].", "## workloads"},
    {"workloads[].problem.", "### problem"},
    {"workloads[].floor.fp32.", "### floor"},
    {"workloads[].floor.tf32.", "### floor"},
    {"workloads[].records[].", "### records"},
    {"results[].", "## results"},
    {"results[].verification.", "### verification"},
    {"results[].timing.", "### timing"},
};

std::string section_heading(const std::string& key_path) {
  std::string best_prefix;
  std::string heading = kSections.front().second;
  for (const auto& [prefix, title] : kSections)
    if (key_path.starts_with(prefix) && prefix.size() >= best_prefix.size()) {
      best_prefix = prefix;
      heading = title;
    }
  return heading;
}

// The text from a heading line to the next heading of any level.
std::string section_text(const std::string& page, const std::string& heading) {
  const std::size_t start = page.find("\n" + heading + "\n");
  REQUIRE_MESSAGE(start != std::string::npos, "docs/json-schema.md has no section " << heading);
  const std::size_t end = page.find("\n#", start + heading.size() + 2);
  return page.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Whether `key` is a word inside one of the section's `code spans`.
bool names_key(const std::string& section, const std::string& key) {
  static const std::regex code_span("`([^`]*)`");
  const std::regex word("(^|[^A-Za-z0-9_])" + key + "($|[^A-Za-z0-9_])");
  for (auto it = std::sregex_iterator(section.begin(), section.end(), code_span); it != std::sregex_iterator(); ++it)
    if (std::regex_search((*it)[1].str(), word)) return true;
  return false;
}

std::string last_key(const std::string& key_path) {
  const std::size_t dot = key_path.rfind('.');
  std::string key = dot == std::string::npos ? key_path : key_path.substr(dot + 1);
  if (key.ends_with("[]")) key.resize(key.size() - 2);
  return key;
}

std::set<std::string> undocumented(const std::set<std::string>& keys, const std::string& page) {
  std::set<std::string> missing;
  for (const std::string& key_path : keys)
    if (!names_key(section_text(page, section_heading(key_path)), last_key(key_path))) missing.insert(key_path);
  return missing;
}

// The schema node of a key path ("results[].timing.samples_s"), following $ref and the object
// branch of a oneOf/anyOf; null when the path is not there.
const json* schema_node(const json& schema, const json* node, const std::string& key_path) {
  const auto resolve = [&](const json* n) {
    while (n && n->contains("$ref")) n = &schema["$defs"][(*n)["$ref"].get<std::string>().substr(8)];
    return n;
  };
  std::stringstream parts(key_path);
  std::string part;
  while (node && std::getline(parts, part, '.')) {
    const bool array = part.ends_with("[]");
    if (array) part.resize(part.size() - 2);
    node = resolve(node);
    for (const char* branches : {"oneOf", "anyOf"})
      if (node->contains(branches))
        for (const json& branch : (*node)[branches])
          if (const json* b = resolve(&branch); b->contains("properties")) node = b;
    if (!node->contains("properties") || !(*node)["properties"].contains(part)) return nullptr;
    node = &(*node)["properties"][part];
    if (array) node = &(*resolve(node))["items"];
  }
  return resolve(node);
}

// A schema node's JSON types as the docs write them: {"string", "null"}, {"integer[]"}, {"object"}.
std::set<std::string> schema_types(const json& schema, const json& node) {
  std::set<std::string> types;
  const auto type_name = [](const json& value) {
    return value.is_string() ? "string" : value.is_null() ? "null" : value.is_boolean() ? "boolean" : "number";
  };
  if (node.contains("const")) types.insert(type_name(node["const"]));
  if (node.contains("enum"))
    for (const json& value : node["enum"]) types.insert(type_name(value));
  if (node.contains("type")) {
    const json& type = node["type"];
    for (const json& t : type.is_array() ? type : json::array({type})) {
      std::string name = t.get<std::string>();
      if (name == "array") {
        const json* items = &node["items"];
        while (items->contains("$ref")) items = &schema["$defs"][(*items)["$ref"].get<std::string>().substr(8)];
        for (const std::string& item : schema_types(schema, *items)) types.insert(item + "[]");
      } else {
        types.insert(name);
      }
    }
  }
  for (const char* branches : {"oneOf", "anyOf"})
    if (node.contains(branches))
      for (const json& branch : node[branches]) {
        const json* b = &branch;
        while (b->contains("$ref")) b = &schema["$defs"][(*b)["$ref"].get<std::string>().substr(8)];
        for (const std::string& t : schema_types(schema, *b)) types.insert(t);
      }
  if (types.empty() && node.contains("properties")) types.insert("object");
  return types;
}

// A docs table's type cell as a set: "number\\|null" -> {number, null}; "bool" is boolean; ", optional" dropped.
std::set<std::string> docs_types(std::string cell) {
  if (const std::size_t comma = cell.find(','); comma != std::string::npos) cell.resize(comma);
  std::set<std::string> types;
  std::string type;
  for (char c : cell + "|") {
    if (c == '|') {
      if (type == "bool") type = "boolean";
      if (!type.empty()) types.insert(type);
      type.clear();
    } else if (c != '\\' && c != ' ') {
      type += c;
    }
  }
  return types;
}

std::string joined_types(const std::set<std::string>& types) {
  std::string out;
  for (const std::string& type : types) out += (out.empty() ? "" : "|") + type;
  return out;
}

// The key path prefix of each docs section: the reverse of kSections.
std::string section_prefix(const std::string& heading) {
  for (const auto& [prefix, title] : kSections)
    if (title == heading) return prefix;
  return "";
}

// "peaks.sms: the docs say number, the schema integer" for each table row whose type differs.
std::vector<std::string> mistyped_rows(const json& schema, const std::string& page) {
  std::vector<std::string> mistyped;
  std::string heading;
  std::stringstream lines(page);
  static const std::regex code_span("`([^`]*)`");
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("#")) heading = line;
    if (!line.starts_with("| `")) continue;
    // Cells split at the '|' that are not escaped ("number\\|null" is one cell).
    std::vector<std::string> cells(1);
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '|' && line[i - 1] != '\\')
        cells.emplace_back();
      else
        cells.back() += line[i];
    }
    if (cells.size() < 3) continue;
    const std::set<std::string> documented = docs_types(cells[1]);
    for (auto it = std::sregex_iterator(cells[0].begin(), cells[0].end(), code_span); it != std::sregex_iterator();
         ++it) {
      const std::string key_path = section_prefix(heading) + (*it)[1].str();
      const json* node = schema_node(schema, &schema, key_path);
      if (!node) continue;  // not a key (the status table's rows)
      if (const std::set<std::string> described = schema_types(schema, *node); described != documented)
        mistyped.push_back(key_path + ": the docs say" + cells[1] + "; the schema says " + joined_types(described));
    }
  }
  return mistyped;
}

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("results schema lists exactly the keys the JSON writer emits") {
    const json schema = json::parse(source_file("docs/kbench.results-1.schema.json"));
    std::set<std::string> described;
    schema_keys(schema, schema, "", described);
    const std::set<std::string> written = writer_keys();
    REQUIRE(written.size() > 100);  // the fully populated report reached every part of the document
    const std::set<std::string> not_in_schema = missing_from(written, described);
    CHECK_MESSAGE(not_in_schema.empty(), "written but not in the schema:" << listed(not_in_schema));
    const std::set<std::string> never_written = missing_from(described, written);
    CHECK_MESSAGE(never_written.empty(), "in the schema but never written (stale, or fully_populated_report misses it):"
                                             << listed(never_written));
  }

  TEST_CASE("docs/json-schema.md names every key of the schema in its section") {
    const json schema = json::parse(source_file("docs/kbench.results-1.schema.json"));
    std::set<std::string> described;
    schema_keys(schema, schema, "", described);
    const std::set<std::string> missing = undocumented(described, source_file("docs/json-schema.md"));
    CHECK_MESSAGE(missing.empty(), "in the schema but not in its docs/json-schema.md section:" << listed(missing));
  }

  TEST_CASE("docs/json-schema.md gives each key the schema's type") {
    const json schema = json::parse(source_file("docs/kbench.results-1.schema.json"));
    const std::string page = source_file("docs/json-schema.md");
    const std::vector<std::string> mistyped = mistyped_rows(schema, page);
    std::string lines;
    for (const std::string& row : mistyped) lines += "\n  " + row;
    CHECK_MESSAGE(mistyped.empty(), "docs rows whose type is not the schema's:" << lines);
    CHECK(docs_types("number\\|null") == std::set<std::string>{"number", "null"});
    CHECK(docs_types("integer, optional") == std::set<std::string>{"integer"});
    // A row that says number where the schema says integer is found.
    const std::string planted = "## peaks\n\n| `sms` | number | streaming multiprocessors |\n";
    CHECK(mistyped_rows(schema, planted).size() == 1);
  }

  TEST_CASE("the docs check finds a key missing from its section") {
    const std::string page =
        "# t\n\n## Top level\n\n| `schema` | string | `{\"peak_rss_bytes\": N}` |\n\n## peaks\n\n"
        "| `name` | string | the `key` |\n";
    CHECK(undocumented({"schema", "host_memory.peak_rss_bytes", "peaks.name", "peaks.key"}, page).empty());
    CHECK(undocumented({"peaks.sms", "settings_like"}, page) == std::set<std::string>{"peaks.sms", "settings_like"});
    // A key named in another section does not count.
    CHECK(undocumented({"schema_of_peaks"}, page).size() == 1);
    CHECK(undocumented({"peaks.schema"}, page) == std::set<std::string>{"peaks.schema"});
  }
}
