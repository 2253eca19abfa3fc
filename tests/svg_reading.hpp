#pragma once
// Reading an SVG chart back in the tests (--plot, src/report/plot_*.cpp): its elements'
// attributes by class, its texts, and whether it is well-formed XML.
#include <map>
#include <string>
#include <vector>

#include "support.hpp"

namespace amdahl::test::svg_reading {

using Attributes = std::map<std::string, std::string>;

// The attributes of every <tag ...> element in `svg` whose class is `css_class` (any class when
// empty), in document order. The writer quotes every value with " and escapes " inside.
inline std::vector<Attributes> elements(const std::string& svg, const std::string& tag,
                                        const std::string& css_class = "") {
    std::vector<Attributes> out;
    for (std::size_t at = svg.find("<" + tag + " "); at != std::string::npos; at = svg.find("<" + tag + " ", at + 1)) {
        const std::size_t end = svg.find('>', at);
        Attributes attributes;
        std::size_t p = at + tag.size() + 2;
        while (p < end) {
            const std::size_t equals = svg.find("=\"", p);
            if (equals == std::string::npos || equals > end) break;
            const std::size_t close = svg.find('"', equals + 2);
            std::string name = svg.substr(p, equals - p);
            name.erase(0, name.find_first_not_of(' '));
            attributes[name] = svg.substr(equals + 2, close - equals - 2);
            p = close + 1;
        }
        if (css_class.empty() || attributes["class"] == css_class) out.push_back(attributes);
    }
    return out;
}

inline double number(const Attributes& attributes, const std::string& name) { return std::stod(attributes.at(name)); }

// The text of each <text class="css_class"> element, in order.
inline std::vector<std::string> texts(const std::string& svg, const std::string& css_class) {
    std::vector<std::string> out;
    const std::string open = "<text class=\"" + css_class + "\"";
    for (std::size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1)) {
        const std::size_t start = svg.find('>', at) + 1;
        out.push_back(svg.substr(start, svg.find("</text>", start) - start));
    }
    return out;
}

// "ok" when Python's XML parser reads the file, else its complaint.
inline std::string xml_check(const std::string& path) {
    const auto result = amdahl::test::run_shell(
        "python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1]); print(\"ok\")' '" + path + "'");
    return result.exit_code == 0 ? "ok" : result.err;
}

}  // namespace amdahl::test::svg_reading
