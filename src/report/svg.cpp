#include "report/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>

#include "report/numbers.hpp"

namespace amdahl::svg {

namespace {

constexpr std::string_view replacement = "\xef\xbf\xbd";  // U+FFFD

// The length of the valid UTF-8 sequence starting at text[i], or 0 when it is not one
// (overlong forms, surrogates and code points past U+10FFFF are not).
std::size_t utf8_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF)
        length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) low = 0xA0;
        if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) low = 0x90;
        if (lead == 0xF4) high = 0x8F;
    } else
        return 0;
    if (i + length > text.size()) return 0;
    if (byte(i + 1) < low || byte(i + 1) > high) return 0;
    for (std::size_t k = 2; k < length; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return length;
}

const char* anchor_name(Anchor anchor) {
    switch (anchor) {
        case Anchor::middle:
            return "middle";
        case Anchor::end:
            return "end";
        default:
            return "start";
    }
}

}  // namespace

std::string_view series_colour(std::size_t index) { return palette[index % palette.size()]; }

std::string_view ink_on(std::string_view fill) {
    if (fill.size() != 7 || fill[0] != '#') return ink;
    const auto channel = [&](std::size_t at) {
        // sRGB to linear light (WCAG's relative luminance).
        int value = 0;
        std::from_chars(fill.data() + at, fill.data() + at + 2, value, 16);
        const double c = value / 255.0;
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    // L = 0.2126 R + 0.7152 G + 0.0722 B; white text where it contrasts more than black.
    const double luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
    return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? ink : "#FFFFFF";
}

std::string escape_xml(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        const auto code = static_cast<unsigned char>(c);
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            default:
                if (code < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                    out += replacement;
                } else if (code == 0x7F) {
                    out += replacement;
                } else if (const std::size_t length = utf8_length(text, i); length == 0) {
                    out += replacement;
                } else {
                    out.append(text.substr(i, length));
                    i += length;
                    continue;
                }
        }
        ++i;
    }
    return out;
}

std::string coordinate(double value) {
    if (!std::isfinite(value)) return "0";
    std::string text = fmt::format("{:.2f}", value);
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    if (text == "-0") text = "0";
    return text;
}

double text_width(std::string_view text, double font_size) {
    // Count code points (continuation bytes are not), at an average sans-serif advance.
    std::size_t characters = 0;
    for (char c : text)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++characters;
    return 0.58 * font_size * static_cast<double>(characters);
}

Document::Document(double width, double height, std::string_view title) : width_(width), height_(height) {
    body_ += fmt::format("<title>{}</title>\n", escape_xml(title));
    body_ += fmt::format("<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"#FFFFFF\"/>\n", coordinate(width),
                         coordinate(height));
}

void Document::open(std::string_view element, const Style& style) {
    body_ += '<';
    body_ += element;
    if (!style.css_class.empty()) body_ += fmt::format(" class=\"{}\"", escape_xml(style.css_class));
    body_ += fmt::format(" fill=\"{}\"", style.fill.empty() ? "none" : escape_xml(style.fill));
    if (style.opacity < 1) body_ += fmt::format(" fill-opacity=\"{}\"", coordinate(style.opacity));
    if (!style.stroke.empty()) {
        body_ +=
            fmt::format(" stroke=\"{}\" stroke-width=\"{}\"", escape_xml(style.stroke), coordinate(style.stroke_width));
        if (!style.dash.empty()) body_ += fmt::format(" stroke-dasharray=\"{}\"", escape_xml(style.dash));
    }
}

void Document::rect(double x, double y, double width, double height, const Style& style) {
    open("rect", style);
    body_ += fmt::format(" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", coordinate(x), coordinate(y),
                         coordinate(std::max(width, 0.0)), coordinate(std::max(height, 0.0)));
}

void Document::line(double x1, double y1, double x2, double y2, const Style& style) {
    open("line", style);
    body_ += fmt::format(" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", coordinate(x1), coordinate(y1), coordinate(x2),
                         coordinate(y2));
}

void Document::polyline(const std::vector<std::pair<double, double>>& points, const Style& style) {
    if (points.size() < 2) return;
    open("polyline", style);
    body_ += " points=\"";
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i) body_ += ' ';
        body_ += coordinate(points[i].first) + ',' + coordinate(points[i].second);
    }
    body_ += "\"/>\n";
}

void Document::circle(double cx, double cy, double radius, const Style& style) {
    open("circle", style);
    body_ += fmt::format(" cx=\"{}\" cy=\"{}\" r=\"{}\"/>\n", coordinate(cx), coordinate(cy),
                         coordinate(std::max(radius, 0.0)));
}

void Document::text(double x, double y, std::string_view content, const TextStyle& style) {
    body_ += "<text";
    if (!style.css_class.empty()) body_ += fmt::format(" class=\"{}\"", escape_xml(style.css_class));
    body_ += fmt::format(" x=\"{}\" y=\"{}\" font-size=\"{}\"", coordinate(x), coordinate(y), coordinate(style.size));
    if (style.anchor != Anchor::start) body_ += fmt::format(" text-anchor=\"{}\"", anchor_name(style.anchor));
    if (style.bold) body_ += " font-weight=\"bold\"";
    if (style.fill != ink) body_ += fmt::format(" fill=\"{}\"", escape_xml(style.fill));
    if (style.rotate != 0)
        body_ += fmt::format(" transform=\"rotate({} {} {})\"", coordinate(style.rotate), coordinate(x), coordinate(y));
    body_ += '>';
    body_ += escape_xml(content);
    body_ += "</text>\n";
}

void Document::begin_group(std::string_view tooltip, std::string_view css_class) {
    body_ += "<g";
    if (!css_class.empty()) body_ += fmt::format(" class=\"{}\"", escape_xml(css_class));
    body_ += '>';
    if (!tooltip.empty()) body_ += fmt::format("<title>{}</title>", escape_xml(tooltip));
    body_ += '\n';
    ++open_groups_;
}

void Document::end_group() {
    if (open_groups_ == 0) return;
    body_ += "</g>\n";
    --open_groups_;
}

std::string Document::finish() const {
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" role=\"img\">\n",
        coordinate(width_), coordinate(height_));
    out += body_;
    for (int i = 0; i < open_groups_; ++i) out += "</g>\n";
    out += "</svg>\n";
    return out;
}

std::vector<double> nice_ticks(double low, double high, int count) {
    if (!std::isfinite(low) || !std::isfinite(high) || low > high) return {};
    if (low == high) return {low};
    // Heckbert's nice numbers: the step is 1, 2 or 5 x 10^n nearest (high - low) / count.
    const double raw_step = (high - low) / std::max(count, 1);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
    const double fraction = raw_step / magnitude;
    const double step = (fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10) * magnitude;
    const double first = std::floor(low / step + 1e-9) * step;
    std::vector<double> ticks;
    for (double k = 0;; ++k) {
        double tick = first + k * step;
        if (std::fabs(tick) < step * 1e-9) tick = 0;  // no "-0" or 1e-17 from the arithmetic
        ticks.push_back(tick);
        if (tick >= high - step * 1e-9 || ticks.size() > 1000) break;
    }
    return ticks;
}

std::vector<double> log_ticks(double low, double high) {
    if (!(low > 0) || !std::isfinite(high) || low > high) return {};
    const int first = static_cast<int>(std::floor(std::log10(low) + 1e-9));
    const int last = static_cast<int>(std::ceil(std::log10(high) - 1e-9));
    const bool fill = last - first < 3;
    // Every decade up to ten of them, else every 2nd, 5th, 10th, 20th, 50th or 100th: at most
    // about ten ticks however many decades (a 1e300x slowdown spans 303).
    int stride = 1;
    for (int nice : {2, 5, 10, 20, 50, 100})
        if ((last - first) / stride > 10) stride = nice;
    std::vector<double> ticks;
    for (int decade = first; decade <= last && ticks.size() < 1000; ++decade) {
        if (decade % stride != 0) continue;
        const double power = std::pow(10.0, decade);
        ticks.push_back(power);
        if (fill && decade < last) {
            ticks.push_back(2 * power);
            ticks.push_back(5 * power);
        }
    }
    return ticks;
}

namespace {
// Below this a tick's fixed-point label would need more than the 12 decimals it may have.
constexpr double scientific_below = 1e-4;
bool scientific(double tick) { return tick != 0 && std::fabs(tick) < scientific_below; }
}  // namespace

std::string tick_label(double value, double step) {
    // Too small for fixed point: scientific ("1e-300"), never "0.000000000000".
    if (scientific(value)) return shortest(value);
    // As many decimals as write the step exactly: 0.25 needs two, 0.5 one, 20 none.
    NumberStyle style;
    style.decimals = 0;
    if (step > 0 && std::isfinite(step))
        for (double scaled = step; style.decimals < 12 && std::fabs(scaled - std::round(scaled)) > 1e-9 * scaled;
             scaled *= 10)
            ++style.decimals;
    if (std::fabs(value) < 1000 || !std::isfinite(value)) return format_fixed(value, style);
    // Thousands grouped as the tables group times; format_time keeps at least one decimal.
    std::string text = format_time(value, style);
    if (style.decimals == 0 && text.ends_with(".0")) text.resize(text.size() - 2);
    return text;
}

std::vector<std::string> tick_labels(const std::vector<double>& ticks) {
    // The step that sets the decimals is taken over the ticks written in fixed point.
    std::vector<double> fixed;
    std::copy_if(ticks.begin(), ticks.end(), std::back_inserter(fixed), [](double t) { return !scientific(t); });
    double step = 0;
    for (std::size_t i = 1; i < fixed.size(); ++i) {
        const double gap = fixed[i] - fixed[i - 1];
        if (gap > 0 && (step == 0 || gap < step)) step = gap;
    }
    // Log ticks (1, 2, 5, 10, ...): the smallest tick decides how many decimals.
    if (!fixed.empty() && fixed.front() > 0 && (step == 0 || fixed.front() < step)) step = fixed.front();
    std::vector<std::string> labels;
    for (double tick : ticks) labels.push_back(tick_label(tick, step == 0 ? 1 : step));
    return labels;
}

double Scale::operator()(double value) const {
    double low = domain_low, high = domain_high;
    if (logarithmic) {
        value = value > 0 ? std::log10(value) : std::log10(domain_low);
        low = std::log10(low);
        high = std::log10(high);
    }
    if (!(high != low) || !std::isfinite(value)) return range_low;
    // t = (v - low) / (high - low);  page = range_low + t (range_high - range_low)
    const double t = (value - low) / (high - low);
    return range_low + t * (range_high - range_low);
}

namespace {
constexpr double tick_length = 5;
constexpr double axis_font = 12;
}  // namespace

void x_axis(Document& document, const PlotArea& area, const Scale& scale, const std::vector<double>& ticks,
            const std::vector<std::string>& labels, std::string_view title, bool grid) {
    const Style axis_line{.stroke = ink, .css_class = "axis"};
    const Style grid_line{.stroke = grid_ink, .css_class = "grid"};
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        const double x = scale(ticks[i]);
        if (grid) document.line(x, area.top, x, area.bottom(), grid_line);
        document.line(x, area.bottom(), x, area.bottom() + tick_length, axis_line);
        if (i < labels.size())
            document.text(x, area.bottom() + tick_length + axis_font + 1, labels[i],
                          {.size = axis_font, .anchor = Anchor::middle, .css_class = "tick"});
    }
    document.line(area.left, area.bottom(), area.right(), area.bottom(), axis_line);
    document.text(area.left + area.width / 2, area.bottom() + tick_length + 2 * axis_font + 10, title,
                  {.size = axis_font + 1, .anchor = Anchor::middle, .css_class = "axis-title"});
}

void y_axis(Document& document, const PlotArea& area, const Scale& scale, const std::vector<double>& ticks,
            const std::vector<std::string>& labels, std::string_view title, bool grid) {
    const Style axis_line{.stroke = ink, .css_class = "axis"};
    const Style grid_line{.stroke = grid_ink, .css_class = "grid"};
    double widest = 0;
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        const double y = scale(ticks[i]);
        if (grid) document.line(area.left, y, area.right(), y, grid_line);
        document.line(area.left - tick_length, y, area.left, y, axis_line);
        if (i < labels.size()) {
            document.text(area.left - tick_length - 3, y + axis_font / 3, labels[i],
                          {.size = axis_font, .anchor = Anchor::end, .css_class = "tick"});
            widest = std::max(widest, text_width(labels[i], axis_font));
        }
    }
    document.line(area.left, area.top, area.left, area.bottom(), axis_line);
    const double x = area.left - tick_length - 3 - widest - 10;
    document.text(x, area.top + area.height / 2, title,
                  {.size = axis_font + 1, .anchor = Anchor::middle, .rotate = -90, .css_class = "axis-title"});
}

void legend(Document& document, double x, double y, const std::vector<LegendEntry>& entries) {
    constexpr double row = 18, swatch = 12;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const LegendEntry& entry = entries[i];
        const double top = y + static_cast<double>(i) * row;
        if (entry.as_line)
            document.line(x, top + swatch / 2, x + 2 * swatch, top + swatch / 2,
                          {.stroke = entry.colour, .stroke_width = 2, .dash = entry.dash, .css_class = "legend"});
        else
            document.rect(x, top, 2 * swatch, swatch, {.fill = entry.colour, .css_class = "legend"});
        document.text(x + 2 * swatch + 6, top + swatch - 1, entry.label, {.size = axis_font, .css_class = "legend"});
    }
}

}  // namespace amdahl::svg
