// The README's (and docs/ci.md's) lists of JSON keys and the schemas in schemas/ say the same:
// every key the docs name is in the schema, and every property of the schema is in the docs, so
// neither can drift from the other. The docs write the keys two ways: a Markdown table whose first
// column holds the keys and whose second may start with their `{subkeys}`, and an inline
// `{key, list[] {subkeys}, optional?, key (a note), speedup (or target)}`.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support.hpp"

namespace {

using amdahl::test::source_path;
using Json = nlohmann::ordered_json;

// A key as the docs name it: how many [] follow it (arrays of ...), and its subkeys when given.
struct DocKey {
    int arrays = 0;
    std::map<std::string, DocKey> children;
    bool has_children = false;
};
using DocKeys = std::map<std::string, DocKey>;

std::string read_file(const std::string& relative) {
    std::ifstream file(source_path(relative));
    std::stringstream buffer;
    buffer << file.rdbuf();
    return buffer.str();
}

// snake_case, digits included (p99_latency).
bool is_key_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

// Skips a balanced (...) or {...} starting at text[pos]; returns what was inside.
std::string skip_balanced(const std::string& text, std::size_t& pos) {
    const std::size_t start = pos + 1;
    int depth = 0;
    for (; pos < text.size(); ++pos) {
        if (text[pos] == '(' || text[pos] == '{') ++depth;
        if (text[pos] == ')' || text[pos] == '}') --depth;
        if (depth == 0) break;
    }
    REQUIRE(pos < text.size());
    return text.substr(start, pos++ - start);
}

void skip_spaces(const std::string& text, std::size_t& pos) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '`')) ++pos;
}

// Parses `{a, b[] {c, d}, e?, f (a note), g (or h)}` starting at text[pos] == '{'.
DocKeys parse_braces(const std::string& text, std::size_t& pos) {
    REQUIRE(text.at(pos) == '{');
    ++pos;
    DocKeys keys;
    skip_spaces(text, pos);
    if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return keys;
    }
    for (;;) {
        skip_spaces(text, pos);
        std::string name;
        while (pos < text.size() && is_key_char(text[pos])) name += text[pos++];
        INFO("at: " << text.substr(pos, 40));
        REQUIRE(!name.empty());
        DocKey key;
        while (text.compare(pos, 2, "[]") == 0) {
            ++key.arrays;
            pos += 2;
        }
        if (pos < text.size() && text[pos] == '?') ++pos;
        std::vector<std::string> alternatives;
        for (skip_spaces(text, pos); pos < text.size() && (text[pos] == '(' || text[pos] == '{');
             skip_spaces(text, pos)) {
            if (text[pos] == '{') {
                key.children = parse_braces(text, pos);
                key.has_children = true;
                continue;
            }
            std::string note = skip_balanced(text, pos);  // "(or target)" names another key
            std::replace(note.begin(), note.end(), '\n', ' ');
            if (note.starts_with("or ") && std::all_of(note.begin() + 3, note.end(), is_key_char))
                alternatives.push_back(note.substr(3));
        }
        keys[name] = key;
        for (const auto& other : alternatives) keys[other] = key;
        REQUIRE(pos < text.size());
        if (text[pos++] == '}') return keys;
        REQUIRE(text[pos - 1] == ',');
    }
}

// The keys of the inline list that follows `anchor` in `doc`.
DocKeys inline_keys(const std::string& doc, const std::string& anchor) {
    const std::string text = read_file(doc);
    const auto at = text.find(anchor);
    INFO(doc << ": " << anchor);
    REQUIRE(at != std::string::npos);
    std::size_t pos = text.find('{', at + anchor.size());
    REQUIRE(pos != std::string::npos);
    return parse_braces(text, pos);
}

// Backticked words of a table cell: `a`, `b[]`.
std::vector<std::string> backticked(const std::string& cell) {
    std::vector<std::string> words;
    for (std::size_t open = cell.find('`'); open != std::string::npos; open = cell.find('`', open)) {
        const auto close = cell.find('`', open + 1);
        REQUIRE(close != std::string::npos);
        words.push_back(cell.substr(open + 1, close - open - 1));
        open = close + 1;
    }
    return words;
}

// The keys of the `| key | meaning |` table that follows `anchor` in `doc`.
DocKeys table_keys(const std::string& doc, const std::string& anchor) {
    const std::string text = read_file(doc);
    INFO(doc << ": " << anchor);
    const auto at = text.find(anchor);
    REQUIRE(at != std::string::npos);
    std::istringstream lines(text.substr(at));
    std::string line;
    while (std::getline(lines, line) && line != "| key | meaning |") {
    }
    REQUIRE(line == "| key | meaning |");
    std::getline(lines, line);  // | --- | --- |
    DocKeys keys;
    while (std::getline(lines, line) && line.starts_with("| ")) {
        INFO(line);
        const auto bar = line.find(" | ", 2);
        REQUIRE(bar != std::string::npos);
        const std::string key_cell = line.substr(2, bar - 2), meaning = line.substr(bar + 3);
        std::vector<std::string> names;
        bool any_array = false;
        for (const auto& word : backticked(key_cell)) {
            REQUIRE(!word.empty());
            REQUIRE(
                std::all_of(word.begin(), word.end(), [](char c) { return is_key_char(c) || c == '[' || c == ']'; }));
            names.push_back(word);
            any_array = any_array || word.ends_with("[]");
        }
        REQUIRE(!names.empty());
        // The first backticked {...} of the meaning lists the subkeys of the row's lists (of every
        // key in the row when none is a list).
        DocKeys children;
        bool has_children = false;
        for (const auto& word : backticked(meaning)) {
            if (!word.starts_with("{")) continue;
            std::size_t pos = 0;
            children = parse_braces(word, pos);
            has_children = true;
            break;
        }
        for (std::string name : names) {
            DocKey key;
            while (name.ends_with("[]")) {
                ++key.arrays;
                name.resize(name.size() - 2);
            }
            if (has_children && (key.arrays > 0 || !any_array)) {
                key.children = children;
                key.has_children = true;
            }
            keys[name] = key;
        }
    }
    return keys;
}

// The schema a local "$ref" ("#/$defs/phase") points to; references to other files are not followed.
const Json* resolve(const Json& root, const Json& node) {
    const auto ref = node.find("$ref");
    if (ref == node.end() || !ref->get<std::string>().starts_with("#/")) return nullptr;
    return &root.at(Json::json_pointer(ref->get<std::string>().substr(1)));
}

// What an instance of `node` may be: its own keywords and those of the branches it combines.
template <class Visit>
void each_branch(const Json& root, const Json& node, Visit&& visit) {
    visit(node);
    for (const char* combinator : {"oneOf", "anyOf", "allOf"}) {
        if (const auto branches = node.find(combinator); branches != node.end()) {
            for (const Json& branch : *branches) each_branch(root, branch, visit);
        }
    }
    if (const Json* target = resolve(root, node)) each_branch(root, *target, visit);
}

// The properties an object valid against `node` can have.
std::map<std::string, const Json*> properties_of(const Json& root, const Json& node) {
    std::map<std::string, const Json*> out;
    each_branch(root, node, [&](const Json& branch) {
        if (const auto properties = branch.find("properties"); properties != branch.end()) {
            for (const auto& [name, property] : properties->items()) out.emplace(name, &property);
        }
    });
    return out;
}

// The schemas of the elements of an array valid against `node` (none when it cannot be one).
std::vector<const Json*> elements_of(const Json& root, const Json& node) {
    std::vector<const Json*> out;
    each_branch(root, node, [&](const Json& branch) {
        if (const auto items = branch.find("items"); items != branch.end()) out.push_back(&*items);
    });
    return out;
}

// Where `docs` and `node` disagree: a property the docs do not name; a documented key that is not
// a property, when `exact`; a documented list ([]) that is not an array. Subkeys the docs give are
// compared alike. `compared` counts the keys compared.
std::vector<std::string> disagreements(const Json& root, const Json& node, const DocKeys& docs,
                                       const std::string& where, bool exact, std::size_t& compared) {
    std::vector<std::string> out;
    const auto properties = properties_of(root, node);
    for (const auto& [name, property] : properties) {
        if (!docs.contains(name)) out.push_back(where + "." + name + ": in the schema, not in the docs");
        ++compared;
    }
    for (const auto& [name, key] : docs) {
        const auto found = properties.find(name);
        if (found == properties.end()) {
            if (exact) out.push_back(where + "." + name + ": in the docs, not in the schema");
            continue;
        }
        ++compared;
        std::vector<const Json*> nodes{found->second};
        for (int level = 0; level < key.arrays; ++level) {
            std::vector<const Json*> elements;
            for (const Json* n : nodes) {
                const auto more = elements_of(root, *n);
                elements.insert(elements.end(), more.begin(), more.end());
            }
            if (elements.empty()) out.push_back(where + "." + name + ": the docs say a list, the schema does not");
            nodes = elements;
        }
        if (!key.has_children || nodes.empty()) continue;
        if (nodes.size() != 1) {
            out.push_back(where + "." + name + ": the schema has several kinds of element");
            continue;
        }
        const auto deeper = disagreements(root, *nodes.front(), key.children,
                                          where + "." + name + (key.arrays ? "[]" : ""), exact, compared);
        out.insert(out.end(), deeper.begin(), deeper.end());
    }
    return out;
}

Json schema(const std::string& name) {
    std::ifstream file(source_path("schemas/" + name));
    return Json::parse(file);
}

}  // namespace

TEST_CASE("readme: the documented JSON keys of every command are the schema's", "[readme][schemas]") {
    struct Documented {
        const char* schema;
        const char* doc;
        const char* anchor;
        bool table;
    };
    const std::vector<Documented> sections = {
        {"eval.schema.json", "README.md", "The JSON report of `eval` (schema_version 1):", true},
        {"eval_mix.schema.json", "README.md", "The JSON report of `eval --mix` (schema_version 1", true},
        {"rank_mix.schema.json", "README.md", "`rank --mix --format json`", false},
        {"plan_mix.schema.json", "README.md", "`plan --mix --format json`", false},
        {"law.schema.json", "README.md", "`law --format json` writes", false},
        {"rank.schema.json", "README.md", "`rank --format json`:", false},
        {"plan.schema.json", "README.md", "`plan --format json`:", false},
        {"scale.schema.json", "README.md", "`scale --format json`:", false},
        {"fit.schema.json", "README.md", "`fit --format json`:", false},
        {"queue.schema.json", "README.md", "`queue --format json`:", false},
        {"eval_ranks.schema.json", "README.md", "`eval --ranks --format json`:", false},
        {"rank_ranks.schema.json", "README.md", "`rank --ranks --format json`:", false},
        {"compare.schema.json", "docs/ci.md", "`amdahl compare --format json` (schema_version 1)", true},
        {"compare_benchmarks.schema.json", "docs/ci.md",
         "`amdahl compare --format json` on benchmark harnesses' output (schema_version 1", true},
        {"profile.schema.json", "README.md", "Every key of a JSON profile (schema_version 1", true},
    };
    std::size_t compared = 0;
    for (const auto& section : sections) {
        INFO(section.doc << ": " << section.anchor);
        const DocKeys docs =
            section.table ? table_keys(section.doc, section.anchor) : inline_keys(section.doc, section.anchor);
        CHECK(docs.size() >= 8);
        const Json root = schema(section.schema);
        for (const auto& problem : disagreements(root, root, docs, section.schema, true, compared)) FAIL_CHECK(problem);
    }
    // What import writes is a profile: every key of it is in the profile's table (which also has
    // the keys only people write, such as proposals and runs).
    const Json import = schema("import.schema.json");
    const DocKeys profile = table_keys("README.md", "Every key of a JSON profile (schema_version 1");
    for (const auto& problem : disagreements(import, import, profile, "import.schema.json", false, compared))
        FAIL_CHECK(problem);
    CHECK(compared >= 300);
}

TEST_CASE("readme: the key lists are read as written, so a drifted one fails", "[readme][schemas]") {
    // The inline form: a note, an alternative, optional keys and nested lists.
    const std::string text =
        "{schema_version, law (\"amdahl\" or \"gustafson\"), speedup (or\ntarget), reason?,\n"
        "overhead (null or {model, coefficient}), runs[] {n, time?}, alternatives[][], fit {model (a), rmse}}";
    std::size_t pos = 0;
    const DocKeys keys = parse_braces(text, pos);
    CHECK(pos == text.size());
    std::vector<std::string> names;
    for (const auto& [name, key] : keys) names.push_back(name);
    CHECK(names == std::vector<std::string>{"alternatives", "fit", "law", "overhead", "reason", "runs",
                                            "schema_version", "speedup", "target"});
    CHECK(keys.at("alternatives").arrays == 2);
    CHECK(keys.at("runs").arrays == 1);
    CHECK(keys.at("runs").children.size() == 2);
    CHECK(keys.at("fit").children.size() == 2);
    CHECK_FALSE(keys.at("overhead").has_children);

    // A schema and docs that agree, and the ways they drift apart.
    const Json root = Json::parse(R"({"properties": {"a": {"type": "array", "items": {"properties": {"b": {}}}},
        "c": {"$ref": "#/$defs/c"}}, "$defs": {"c": {"properties": {"d": {}}}}})");
    const auto compare = [&](const std::string& docs_text, bool exact) {
        std::size_t at = 0, compared = 0;
        const DocKeys docs = parse_braces(docs_text, at);
        return disagreements(root, root, docs, "s", exact, compared);
    };
    CHECK(compare("{a[] {b}, c {d}}", true).empty());
    CHECK(compare("{a[] {b}, c}", true).empty());
    CHECK(compare("{a[] {b}}", true) == std::vector<std::string>{"s.c: in the schema, not in the docs"});
    CHECK(compare("{a[] {b}, c, e}", true) == std::vector<std::string>{"s.e: in the docs, not in the schema"});
    CHECK(compare("{a[] {b}, c, e}", false).empty());
    CHECK(compare("{a[] {b, f}, c}", true) == std::vector<std::string>{"s.a[].f: in the docs, not in the schema"});
    CHECK(compare("{a[] {}, c {d}}", true) == std::vector<std::string>{"s.a[].b: in the schema, not in the docs"});
    CHECK(compare("{a, c[]}", true) == std::vector<std::string>{"s.c: the docs say a list, the schema does not"});
}
