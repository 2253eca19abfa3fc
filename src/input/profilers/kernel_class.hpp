#pragma once
// The kernel classes of `--group-by class`, the ones a GPU engineer expects (gemm, attention,
// conv, norm, ...), by keywords in the kernel's name; docs/kernel-classes.md is the table.
#include <string>
#include <string_view>
#include <vector>

namespace amdahl::detail {

/// A kernel's class and the rule that put it there, for --explain.
struct KernelClass {
    std::string_view name;  ///< "gemm", ..., "other"
    std::string rule;       ///< "kind copy", "'gemm' in the base name", "no rule"
};

/// The class of a kernel (or copy, memset) called `name` whose phase kind is `kind` (kernel, copy,
/// memset; may be empty). The first rule that holds wins, tried in this order: kind copy is
/// memcpy, kind memset is memset; then each class's keywords (class_keywords(), in its order),
/// found without regard to case in the name without return type, template arguments and
/// arguments (model/short_names.hpp's qualified_name: `at::native::reduce_kernel` for
/// `void at::native::reduce_kernel<...>(T3)`); then the keywords that name a library (nccl,
/// rccl, cublas, cutlass, Cijk_) in the whole name (template arguments and parameters); else other.
KernelClass kernel_class(std::string_view name, std::string_view kind);

/// The classes and their keywords in the order they are tried, then "other" (no keywords).
struct ClassKeywords {
    std::string_view name;
    std::vector<std::string_view> keywords;  ///< lower case
};
const std::vector<ClassKeywords>& class_keywords();

}  // namespace amdahl::detail
