#pragma once
// Names people can read. Real kernel names are C++ signatures of 100-300 characters
// (`void at::native::reduce_kernel<512, 1, at::native::ReduceOp<...>>(T3)`); a table shows the
// part a person recognises, as nsys's base names do, and never the same text for two phases.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace amdahl {

/// The readings of one name, shortest first, each different from the one before; the last is
/// the name itself:
///  1. the base name: return type, template arguments, argument list and namespaces dropped
///     (`reduce_kernel`); a cutlass `Kernel<NAME>`/`Kernel2<NAME>` wrapper reads as NAME;
///  2. one more enclosing namespace at a time (`native::reduce_kernel`, `at::native::reduce_kernel`);
///  3. the base name with its template arguments, their own namespaces and casts dropped
///     (`reduce_kernel<512, 1, ReduceOp<float, MeanOps<float>>>`);
///  4. the full name.
/// A name that is not a C++ signature (no `name(` or `name<`) has one reading, itself.
std::vector<std::string> name_readings(std::string_view name);

/// The name without return type, template arguments and argument list, namespaces kept
/// (`at::native::reduce_kernel`; a cutlass wrapper's kernel); `name` itself when it is no C++
/// signature.
std::string qualified_name(std::string_view name);

/// The names to print for `names` (distinct full names), in order: each name's shortest reading
/// that no other name in the list shares (names that would collide move on to their next
/// reading together). With `width` > 0, a name wider than that is cut in the middle
/// (`cutlass_80_tensor…128x256_32x3_tn_align8`), where the cut keeps it apart from every other
/// name; a name no cut keeps apart is printed whole. Empty when every name is printed as it is
/// (profiles of plain names: nothing to copy).
std::vector<std::string> short_names(const std::vector<std::string_view>& names, std::size_t width = 0);
/// The same, from the names' readings (`name_readings` of each, in order) when the caller has them.
std::vector<std::string> short_names(const std::vector<std::string_view>& names,
                                     std::vector<std::vector<std::string>> readings, std::size_t width = 0);

/// `text` cut to `width` columns (code points) with "…" in the middle after `head` of them.
std::string cut_middle(std::string_view text, std::size_t width, std::size_t head);

}  // namespace amdahl
