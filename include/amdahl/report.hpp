#pragma once
/// \file The one table model every command's output goes through, its renderers (text, CSV,
/// Markdown), and a small JSON writer. Commands build a Table; the format picks the renderer.
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace amdahl {

enum class OutputFormat { table, json, csv, markdown };
std::optional<OutputFormat> parse_output_format(std::string_view name);

/// A cell as a person reads it (rounded, with units) and as a script reads it (full precision).
struct Cell {
    std::string human;
    std::string machine;
    Cell() = default;
    Cell(std::string text) : human(text), machine(std::move(text)) {}  // NOLINT: implicit on purpose
    Cell(std::string human_text, std::string machine_text)
        : human(std::move(human_text)), machine(std::move(machine_text)) {}
};

struct Column {
    std::string header;  ///< for people: "time (ms)"
    std::string key;     ///< for scripts (CSV header): "time_ms"
    bool right_aligned = false;
    bool code = false;  ///< names from code (kernels, functions): a code span in Markdown
};

struct Table {
    std::vector<Column> columns;
    std::vector<std::vector<Cell>> rows;
    /// Rows made on demand after `rows`, so a million phases never sit in memory as cells:
    /// make_row(i, cells) fills row i < generated_rows. The text renderer calls it twice a row
    /// (widths first), so it must give the same cells each time.
    std::size_t generated_rows = 0;
    std::function<void(std::size_t, std::vector<Cell>&)> make_row;
};

/// Aligned columns for a terminal.
std::string render_text(const Table& table);
/// The same, a line each: a table inside a report's section.
std::vector<std::string> table_lines(const Table& table);
/// RFC 4180 CSV with machine keys and machine values.
std::string render_csv(const Table& table);
/// A GitHub-flavoured Markdown pipe table with human headers and values.
std::string render_markdown(const Table& table);
/// The same texts, written to `out` as they are made.
void write_text(std::ostream& out, const Table& table);
void write_csv(std::ostream& out, const Table& table);
void write_markdown(std::ostream& out, const Table& table);

/// "label: value" lines with the labels aligned.
std::string render_summary(const std::vector<std::pair<std::string, std::string>>& items);

/// Makes text safe for a terminal or a table cell: control characters (including escape
/// sequences) and invalid UTF-8 are shown as \xNN.
std::string printable(std::string_view text);

/// Builds JSON text. Non-finite numbers are written as null.
class JsonWriter {
public:
    /// With a sink, finished text is written to it as the writer goes, so a report of a million
    /// phases never sits whole in memory; str() then returns only the rest.
    explicit JsonWriter(std::ostream* sink = nullptr) : sink_(sink) {}
    /// Numbers read back bit for bit (no dropping of floating-point noise): for profiles.
    void exact_numbers() { exact_ = true; }

    /// A writer whose elements continue a list that another writer holds `depth` containers
    /// deep and has already written an element to: its text goes into that writer with
    /// append_elements(), so the elements of a long list can be written on several threads.
    static JsonWriter continuing_list(std::size_t depth);
    /// Appends the text of a continuing_list() writer as further elements of the current list.
    JsonWriter& append_elements(JsonWriter& elements);

    /// `one_line`: the container and everything in it on one line (rows of a long list).
    JsonWriter& begin_object(bool one_line = false);
    JsonWriter& end_object();
    JsonWriter& begin_array(bool one_line = false);
    JsonWriter& end_array();
    JsonWriter& key(std::string_view name);
    JsonWriter& value(double number);
    JsonWriter& value(int number);
    JsonWriter& value(long long number);
    JsonWriter& value(std::size_t number);
    JsonWriter& value(bool flag);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& null();
    template <class T>
    JsonWriter& value(const std::optional<T>& maybe) {
        return maybe ? value(*maybe) : null();
    }
    template <class T>
    JsonWriter& field(std::string_view name, const T& v) {
        key(name);
        return value(v);
    }
    /// The finished text, pretty-printed with two-space indents and a final newline. Moves the
    /// text out (no copy of a large report): call it once, at the end.
    std::string str() {
        out_ += '\n';
        return std::move(out_);
    }

private:
    struct Level {
        bool first = true;  // no element written yet
        bool one_line = false;
    };
    void before_value();
    void newline();
    void flush();  // finished text to the sink, if there is one
    JsonWriter& close(char bracket);
    std::ostream* sink_;
    bool exact_ = false;
    std::string out_;
    std::vector<Level> levels_;
    bool after_key_ = false;
    // The last number written and its text: a phase's time is often its new time too.
    double last_number_ = 0;
    char last_text_[32] = {};
    std::size_t last_size_ = 0;
};

}  // namespace amdahl
