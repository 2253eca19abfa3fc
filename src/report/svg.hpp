#pragma once
// A small writer of self-contained SVG documents (no scripts, no external fonts or styles) and
// the axis arithmetic the charts share: nice ticks, linear and logarithmic scales, labelled axes.
// The charts (src/report/plot_*.cpp) draw with it; the HTML report embeds what it writes.
// Text that comes from the user's input (phase names) is escaped here, once.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace amdahl::svg {

/// The Okabe-Ito palette, told apart by people with any common colour-vision deficiency. Black
/// is left out (it is the axes' colour); the order is the order series take them.
inline constexpr std::array<std::string_view, 7> palette = {
    "#0072B2",  // blue
    "#E69F00",  // orange
    "#009E73",  // bluish green
    "#CC79A7",  // reddish purple
    "#56B4E9",  // sky blue
    "#D55E00",  // vermillion
    "#F0E442",  // yellow (light: for fills with dark text only)
};
/// The palette's colour for series `index`, cycling.
std::string_view series_colour(std::size_t index);
inline constexpr std::string_view ink = "#000000";         ///< axes, text
inline constexpr std::string_view grid_ink = "#D9D9D9";    ///< grid lines
inline constexpr std::string_view muted_ink = "#595959";   ///< secondary text (7:1 on white)
inline constexpr std::string_view other_fill = "#BBBBBB";  ///< "the rest": phases not drawn one by one
/// The text colour readable on a fill "#RRGGBB": black on light colours, white on dark ones.
std::string_view ink_on(std::string_view fill);

/// Text made safe inside an XML element or attribute: & < > " ' escaped, bytes XML 1.0 forbids
/// (control characters other than tab, newline, carriage return) and invalid UTF-8 replaced by
/// U+FFFD, so that a name from a profile can never break the document.
std::string escape_xml(std::string_view text);

/// A coordinate or length for an attribute: at most two decimals, trailing zeros dropped, never
/// "-0", and 0 for a value that is not finite (a document must stay well-formed whatever it is
/// given).
std::string coordinate(double value);

/// About how wide `text` is drawn at `font_size` in a sans-serif font: for layout (labels that
/// must fit beside a bar), not exact.
double text_width(std::string_view text, double font_size);

/// How a shape is drawn. Empty strings leave the attribute out.
struct Style {
    std::string_view fill = "none";
    std::string_view stroke = {};
    double stroke_width = 1;
    std::string_view dash = {};       ///< stroke-dasharray, e.g. "6 4"
    std::string_view css_class = {};  ///< class attribute: names a chart's parts for tests and CSS
    double opacity = 1;               ///< fill-opacity
};

enum class Anchor { start, middle, end };

/// How text is drawn.
struct TextStyle {
    double size = 12;
    Anchor anchor = Anchor::start;
    bool bold = false;
    std::string_view fill = ink;
    double rotate = 0;  ///< degrees about the anchor point (-90: reads bottom to top)
    std::string_view css_class = {};
};

/// Writes one SVG document: elements in drawing order, then finish().
class Document {
public:
    /// A document `width` x `height` user units (pixels at 100%), its viewBox the same, with a
    /// <title> (the accessible name) and a white background.
    Document(double width, double height, std::string_view title);

    double width() const { return width_; }
    double height() const { return height_; }

    void rect(double x, double y, double width, double height, const Style& style);
    void line(double x1, double y1, double x2, double y2, const Style& style);
    /// An open line through `points` (x, y) in order; nothing for fewer than two.
    void polyline(const std::vector<std::pair<double, double>>& points, const Style& style);
    void circle(double cx, double cy, double radius, const Style& style);
    /// One line of text; `content` is escaped.
    void text(double x, double y, std::string_view content, const TextStyle& style = {});
    /// Opens a group (<g>) whose first child is `tooltip` as a <title>, when given; the elements
    /// drawn until end_group() belong to it. finish() closes groups left open.
    void begin_group(std::string_view tooltip = {}, std::string_view css_class = {});
    void end_group();

    /// The whole document, closed. The writer may go on being used; each call closes a copy.
    std::string finish() const;

private:
    void open(std::string_view element, const Style& style);
    double width_, height_;
    std::string body_;
    int open_groups_ = 0;
};

/// Ticks for an axis over [low, high]: multiples of 1, 2 or 5 x 10^n, about `count` of them,
/// covering the interval (the first <= low, the last >= high). Empty for an empty or non-finite
/// interval; one tick when low == high.
std::vector<double> nice_ticks(double low, double high, int count = 5);
/// Ticks for a logarithmic axis over [low, high] (both > 0): the powers of ten, with 2 and 5
/// between them when there are fewer than three decades.
std::vector<double> log_ticks(double low, double high);
/// A tick's label: the number through the project's formatter with as many decimals as the
/// step between ticks needs ("0", "0.5", "2.25"), thousands grouped.
std::string tick_label(double value, double step);

/// Maps data values to page coordinates along one axis, linearly or by logarithm.
struct Scale {
    double domain_low = 0, domain_high = 1;  ///< data
    double range_low = 0, range_high = 1;    ///< page (may run backwards: a y axis)
    bool logarithmic = false;
    double operator()(double value) const;
};

/// The rectangle the data is drawn in, inside the document's margins.
struct PlotArea {
    double left = 0, top = 0, width = 0, height = 0;
    double right() const { return left + width; }
    double bottom() const { return top + height; }
};

/// Draws a bottom x axis along `area`: line, ticks at `ticks` with `labels`, light vertical grid
/// lines, and `title` (with its unit: "time (ms)") centred below.
void x_axis(Document& document, const PlotArea& area, const Scale& scale, const std::vector<double>& ticks,
            const std::vector<std::string>& labels, std::string_view title, bool grid = true);
/// Draws a left y axis the same way; its title reads bottom to top.
void y_axis(Document& document, const PlotArea& area, const Scale& scale, const std::vector<double>& ticks,
            const std::vector<std::string>& labels, std::string_view title, bool grid = true);
/// Labels for `ticks` by tick_label (the step is the smallest gap between them).
std::vector<std::string> tick_labels(const std::vector<double>& ticks);

/// A legend: one swatch (a filled square, or a line when `as_line`) and a label per entry,
/// stacked downwards from (x, y).
struct LegendEntry {
    std::string label;
    std::string_view colour;
    bool as_line = false;
    std::string_view dash = {};
};
void legend(Document& document, double x, double y, const std::vector<LegendEntry>& entries);

}  // namespace amdahl::svg
