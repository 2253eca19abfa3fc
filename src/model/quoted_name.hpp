#pragma once
// How messages show a name the user gave or a profile holds: quoted, and cut when it is long.
#include <cstddef>
#include <string>
#include <string_view>

namespace amdahl {

/// Names up to this many characters (UTF-8 code points) are quoted whole.
inline constexpr std::size_t quoted_name_limit = 80;

/// `'name'`; a longer name keeps its first 48 and last 24 characters around an ellipsis and says
/// how long it is: `'void cutlass::Kernel<…>::Params)' (812 characters)`. Cuts fall between
/// UTF-8 sequences; the text is otherwise left as it is (printable() escapes it for a terminal).
std::string quoted_name(std::string_view name);

/// The spaces in `text` a terminal shows as a plain space but are not one (U+00A0 no-break space,
/// U+2000..U+200B, U+202F, U+205F, U+3000, U+FEFF), as "U+00A0, U+202F"; "" when it has none.
std::string unusual_spaces(std::string_view text);

}  // namespace amdahl
