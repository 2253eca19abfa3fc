#include "model/short_names.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace amdahl {

namespace {

bool is_identifier(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_open(char c) { return c == '(' || c == '<' || c == '[' || c == '{'; }
bool is_close(char c) { return c == ')' || c == '>' || c == ']' || c == '}'; }

// A name read as a C++ signature: `RETURN QUALIFIED_NAME<TEMPLATE>(ARGUMENTS) [SUFFIX]`.
struct Signature {
    std::vector<std::string> components;  // the qualified name, templates and anonymous namespaces dropped
    std::string templates;                // the function's template arguments, tidied; empty if none
    std::string wrapped;                  // cutlass Kernel<NAME>: NAME
};

// `text` without the namespaces of the names in it (`at::native::Mul<float>` -> `Mul<float>`),
// anonymous namespaces (`<unnamed>::`, `(anonymous namespace)::`) and casts of numbers
// (`(int)128` -> `128`, as nsys writes template values).
std::string tidy(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text.substr(i).starts_with("<unnamed>::")) {
            i += 11;
            continue;
        }
        if (text.substr(i).starts_with("(anonymous namespace)::")) {
            i += 23;
            continue;
        }
        if (text[i] == '(') {
            // A cast: "(" lower-case words ")" before a number.
            std::size_t j = i + 1;
            while (j < text.size() && ((text[j] >= 'a' && text[j] <= 'z') || text[j] == ' ')) ++j;
            if (j > i + 1 && j + 1 < text.size() && text[j] == ')' &&
                ((text[j + 1] >= '0' && text[j + 1] <= '9') || text[j + 1] == '-')) {
                i = j + 1;
                continue;
            }
        }
        if (is_identifier(text[i]) && (out.empty() || !is_identifier(out.back()))) {
            std::size_t j = i;
            while (j < text.size() && is_identifier(text[j])) ++j;
            if (text.substr(j).starts_with("::")) {
                i = j + 2;  // a namespace or class: dropped
                continue;
            }
            out.append(text.substr(i, j - i));
            i = j;
            continue;
        }
        out += text[i++];
    }
    return out;
}

std::optional<Signature> parse_signature(std::string_view text) {
    // No argument list and no template arguments: no signature (nearly every plain name).
    if (text.find_first_of("(<") == std::string_view::npos) return std::nullopt;
    // The groups at the top level: where each opens and closes.
    // For each top-level bracket, its partner's position (close -> open, open -> close); npos elsewhere.
    constexpr std::size_t none = std::string_view::npos;
    std::vector<std::size_t> open_of(text.size(), none), close_of(text.size(), none);
    std::vector<std::pair<std::size_t, std::size_t>> groups;
    std::vector<std::size_t> stack;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '>' && i > 0 && text[i - 1] == '-') continue;  // "->"
        if (is_open(c)) {
            stack.push_back(i);
        } else if (is_close(c)) {
            if (stack.empty()) return std::nullopt;  // unbalanced: not a signature
            const std::size_t open = stack.back();
            stack.pop_back();
            if (stack.empty()) {
                open_of[i] = open;
                close_of[open] = i;
                groups.emplace_back(open, i);
            }
        }
    }
    if (!stack.empty()) return std::nullopt;
    const auto followed_by_scope = [&](std::size_t close) { return text.substr(close + 1).starts_with("::"); };

    // The argument list: the last top-level parenthesis not followed by "::" ("(anonymous
    // namespace)::"), right after the name, with nothing after it but qualifiers and "[clone ...]".
    std::size_t name_end = std::string_view::npos;
    for (auto g = groups.rbegin(); g != groups.rend(); ++g) {
        if (text[g->first] != '(' || followed_by_scope(g->second)) continue;
        if (g->first == 0 || !(is_identifier(text[g->first - 1]) || text[g->first - 1] == '>')) break;
        std::size_t i = g->second + 1;
        bool tail_ok = true;
        while (i < text.size() && tail_ok) {
            if (text[i] == ' ' || text[i] == '&') {
                ++i;
            } else if (text[i] == '[' && close_of[i] != none) {
                i = close_of[i] + 1;
            } else if (text.substr(i).starts_with("const")) {
                i += 5;
            } else if (text.substr(i).starts_with("volatile")) {
                i += 8;
            } else if (text.substr(i).starts_with("noexcept")) {
                i += 8;
            } else {
                tail_ok = false;
            }
        }
        if (tail_ok) name_end = g->first;
        break;
    }
    if (name_end == std::string_view::npos) {
        // No argument list: a template name at the end (`cutlass::Kernel<X>`).
        std::size_t end = text.size();
        while (end > 0 && text[end - 1] == ' ') --end;
        if (end == 0 || text[end - 1] != '>' || open_of[end - 1] == none) return std::nullopt;
        const std::size_t open = open_of[end - 1];
        if (text[open] != '<' || open == 0 || !is_identifier(text[open - 1])) return std::nullopt;
        name_end = end;
    }

    // Back from the end of the name over identifiers, "::", template groups and anonymous
    // namespaces, to the space after the return type (or the start).
    std::size_t start = name_end;
    while (start > 0) {
        const char c = text[start - 1];
        if (is_identifier(c)) {
            --start;
        } else if (c == ':' && start >= 2 && text[start - 2] == ':') {
            start -= 2;
        } else if (is_close(c) && open_of[start - 1] != none &&
                   (c == '>' || (c == ')' && followed_by_scope(start - 1)))) {
            start = open_of[start - 1];
        } else {
            break;
        }
    }
    if (start > 0 && text[start - 1] != ' ' && text[start - 1] != '*' && text[start - 1] != '&') return std::nullopt;

    Signature signature;
    std::string component;
    std::string last_template;
    for (std::size_t i = start; i < name_end;) {
        if (text.substr(i).starts_with("::")) {
            if (!component.empty()) signature.components.push_back(std::move(component));
            component.clear();
            last_template.clear();
            i += 2;
        } else if (is_open(text[i])) {
            const std::size_t close = close_of[i] != none ? close_of[i] : i;
            if (text[i] == '<' && !component.empty()) last_template = std::string(text.substr(i + 1, close - i - 1));
            i = close + 1;
        } else {
            component += text[i++];
        }
    }
    if (!component.empty()) signature.components.push_back(std::move(component));
    if (signature.components.empty()) return std::nullopt;
    if (!last_template.empty()) signature.templates = tidy(last_template);
    const std::string& function = signature.components.back();
    if ((function == "Kernel" || function == "Kernel2") &&
        std::all_of(last_template.begin(), last_template.end(), [](char c) { return is_identifier(c) || c == ':'; })) {
        const auto scope = last_template.rfind("::");
        signature.wrapped = scope == std::string::npos ? last_template : last_template.substr(scope + 2);
    }
    return signature;
}

std::size_t code_points(std::string_view text) {
    std::size_t count = 0;
    for (const char c : text)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
    return count;
}

// Byte offset of code point `n` in `text` (text.size() past the end).
std::size_t offset_of(std::string_view text, std::size_t n) {
    std::size_t seen = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            if (seen == n) return i;
            ++seen;
        }
    }
    return text.size();
}

}  // namespace

std::vector<std::string> name_readings(std::string_view name) {
    std::vector<std::string> readings;
    const auto add = [&](std::string reading) {
        if (!reading.empty() && (readings.empty() || readings.back() != reading))
            readings.push_back(std::move(reading));
    };
    if (const auto signature = parse_signature(name)) {
        const auto& parts = signature->components;
        if (!signature->wrapped.empty()) {
            add(signature->wrapped);
        } else {
            // A function called just "kernel" says nothing without its class or namespace
            // (cuBLAS's `internal::gemvx::kernel<...>`): its base name keeps one.
            const std::string& function = parts.back();
            const bool generic = parts.size() > 1 && (function == "kernel" || function == "Kernel" ||
                                                      function == "device_kernel" || function == "operator()");
            const std::size_t base_parts = generic ? 2 : 1;
            std::string qualified, base;
            for (std::size_t k = 1; k <= parts.size(); ++k) {
                qualified = parts[parts.size() - k] + (qualified.empty() ? "" : "::" + qualified);
                if (k == base_parts) base = qualified;
                if (k >= base_parts) add(qualified);
            }
            // Namespaces did not tell the name apart: the template arguments do, after the base name.
            if (!signature->templates.empty()) add(base + "<" + signature->templates + ">");
        }
    }
    if (readings.empty() || readings.back() != name) readings.emplace_back(name);
    return readings;
}

std::string qualified_name(std::string_view name) {
    const auto signature = parse_signature(name);
    if (!signature) return std::string(name);
    if (!signature->wrapped.empty()) return signature->wrapped;
    std::string out;
    for (const auto& part : signature->components) out += (out.empty() ? "" : "::") + part;
    return out;
}

std::string cut_middle(std::string_view text, std::size_t width, std::size_t head) {
    const std::size_t length = code_points(text);
    if (length <= width || width < 2) return std::string(text);
    head = std::min(head, width - 1);
    const std::size_t tail = width - 1 - head;
    return std::string(text.substr(0, offset_of(text, head))) + "\xe2\x80\xa6" +  // …
           std::string(text.substr(offset_of(text, length - tail)));
}

std::vector<std::string> short_names(const std::vector<std::string_view>& names, std::size_t width) {
    std::vector<std::vector<std::string>> readings(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) readings[i] = name_readings(names[i]);
    return short_names(names, std::move(readings), width);
}

std::vector<std::string> short_names(const std::vector<std::string_view>& names,
                                     std::vector<std::vector<std::string>> readings, std::size_t width) {
    bool any = false;
    for (std::size_t i = 0; i < names.size(); ++i)
        any = any || readings[i].size() > 1 || (width > 0 && code_points(names[i]) > width);
    if (!any) return {};

    // Every name starts at its shortest reading; names that share one move on together, until
    // no two share (the last reading, the full name, is unique).
    std::vector<std::size_t> level(names.size(), 0);
    for (bool moved = true; moved;) {
        moved = false;
        std::unordered_map<std::string_view, std::vector<std::size_t>> holders;
        for (std::size_t i = 0; i < names.size(); ++i) holders[readings[i][level[i]]].push_back(i);
        for (const auto& [reading, group] : holders) {
            if (group.size() < 2) continue;
            for (std::size_t i : group)
                if (level[i] + 1 < readings[i].size()) {
                    ++level[i];
                    moved = true;
                }
        }
    }
    std::vector<std::string> out(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) out[i] = std::move(readings[i][level[i]]);
    if (width < 2) return out;

    // Cut in the middle what is too wide: the start says the family, the end the variant
    // (`…_128x256_32x3_tn_align8`), so the end keeps more. Names whose cuts coincide try other
    // places for the cut; those none keeps apart stay whole.
    std::unordered_set<std::string> whole(out.begin(), out.end());
    std::vector<std::size_t> wide;
    for (std::size_t i = 0; i < out.size(); ++i)
        if (code_points(out[i]) > width) wide.push_back(i);
    std::vector<std::size_t> heads;
    const std::size_t preferred = (width - 1) / 3;
    for (std::size_t h = preferred; h >= 1; --h) heads.push_back(h);
    for (std::size_t h = preferred + 1; h + 1 < width; ++h) heads.push_back(h);
    // Names alike at both ends (template arguments that differ in the middle) show a window
    // around where they differ: `kernel<int, …, 0, 7, 0, cublasGemv…`.
    const auto windowed = [&](const std::vector<std::size_t>& group, std::vector<std::string>& texts) {
        std::size_t common = code_points(out[group.front()]);
        for (std::size_t i : group) {
            std::size_t k = 0;
            const std::string& a = out[group.front()];
            const std::string& b = out[i];
            std::size_t points = 0;
            while (k < a.size() && k < b.size() && a[k] == b[k]) {
                if ((static_cast<unsigned char>(a[k]) & 0xC0) != 0x80) ++points;
                ++k;
            }
            common = std::min(common, points);
        }
        if (width < 8) return false;
        const std::size_t head = (width - 2) / 3, window = width - head - 2;
        const std::size_t start = std::max(head, common > window / 3 ? common - window / 3 : 0);
        texts.clear();
        for (std::size_t i : group) {
            const std::string_view text = out[i];
            const std::size_t length = code_points(text);
            if (start + window >= length) return false;  // reaches the end: a head-and-tail cut
            texts.push_back(std::string(text.substr(0, offset_of(text, head))) + "\xe2\x80\xa6" +
                            std::string(text.substr(offset_of(text, start),
                                                    offset_of(text, start + window) - offset_of(text, start))) +
                            "\xe2\x80\xa6");
        }
        return true;
    };
    std::unordered_map<std::string, std::vector<std::size_t>> by_cut;
    for (std::size_t i : wide) by_cut[cut_middle(out[i], width, preferred)].push_back(i);
    std::unordered_set<std::string> taken(whole);
    for (const auto& [cut, group] : by_cut)
        if (group.size() == 1 && whole.count(cut) == 0) taken.insert(cut);
    for (auto& [cut, group] : by_cut) {
        if (group.size() == 1 && whole.count(cut) == 0) {
            out[group.front()] = cut;
            continue;
        }
        bool placed = false;
        for (std::size_t h : heads) {
            std::unordered_set<std::string> tried;
            bool apart = true;
            for (std::size_t i : group) {
                std::string text = cut_middle(out[i], width, h);
                apart = apart && taken.count(text) == 0 && tried.insert(std::move(text)).second;
            }
            if (!apart) continue;
            for (std::size_t i : group) {
                out[i] = cut_middle(out[i], width, h);
                taken.insert(out[i]);
            }
            placed = true;
            break;
        }
        std::vector<std::string> texts;
        if (!placed && windowed(group, texts)) {
            const std::unordered_set<std::string> distinct(texts.begin(), texts.end());
            bool apart = distinct.size() == texts.size();
            for (const auto& text : texts) apart = apart && taken.count(text) == 0;
            if (apart)
                for (std::size_t k = 0; k < group.size(); ++k) {
                    out[group[k]] = texts[k];
                    taken.insert(texts[k]);
                }
        }
        // otherwise the names stay whole
    }
    return out;
}

}  // namespace amdahl
