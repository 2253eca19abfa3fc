#include "input/profilers/kernel_class.hpp"

#include <optional>

#include "model/short_names.hpp"
#include "model/text.hpp"

namespace amdahl::detail {

const std::vector<ClassKeywords>& class_keywords() {
    // Order matters where names hold two keywords: an AllReduce is communication, not a
    // reduction; flash attention and fmha kernels built on cutlass are attention, not gemm;
    // implicit-gemm convolutions (cudnn's fprop/dgrad/wgrad) are conv; cublasLt's split-K
    // reduction belongs to its gemm.
    static const std::vector<ClassKeywords> table{
        {"memcpy", {"memcpy", "memory_copy", "copybuffer"}},  // ROCm's hipMemcpy kernels: __amd_rocclr_copyBuffer
        {"memset", {"memset", "fillbuffer"}},                 // and hipMemset's: __amd_rocclr_fillBufferAligned
        {"communication",
         {"nccl", "rccl", "allreduce", "all_reduce", "allgather", "all_gather", "reducescatter", "reduce_scatter",
          "alltoall", "all_to_all"}},
        {"attention", {"flash", "fmha", "sdpa", "softmax", "attention", "attn"}},
        {"norm",
         {"layernorm", "layer_norm", "rmsnorm", "rms_norm", "batchnorm", "batch_norm", "groupnorm", "group_norm",
          "instancenorm", "instance_norm"}},
        {"conv",
         {"conv1d", "conv2d", "conv3d", "convolution", "convolve", "fprop", "dgrad", "wgrad", "winograd", "im2col",
          "scudnn"}},
        {"gemm", {"cutlass", "cublas", "cijk_", "nvjet", "gemm", "gemv", "matmul"}},
        {"reduction", {"reduce", "reduction", "triton_red_", "triton_per_"}},
        {"elementwise", {"elementwise", "element_wise", "pointwise", "triton_poi_"}},
    };
    return table;
}

namespace {

// In template arguments and parameters only a library's own names are evidence
// (`cublasLtEpilogue_t`, `ncclDevKernelArgs`): words like "reduce" appear there for other reasons
// (cudnn's FFT kernels take a `cudnn::reduced_divisor`).
bool library_name(std::string_view keyword) {
    return keyword == "nccl" || keyword == "rccl" || keyword == "cublas" || keyword == "cutlass" ||
           keyword == "cijk_" || keyword == "nvjet";
}

std::optional<KernelClass> by_keyword(const std::string& text, bool libraries_only, const char* where) {
    for (const ClassKeywords& entry : class_keywords())
        for (std::string_view keyword : entry.keywords)
            if ((!libraries_only || library_name(keyword)) && text.find(keyword) != std::string::npos)
                return KernelClass{entry.name, "'" + std::string(keyword) + "' in " + where};
    return std::nullopt;
}

}  // namespace

KernelClass kernel_class(std::string_view name, std::string_view kind) {
    if (kind == "copy") return {"memcpy", "kind copy"};
    if (kind == "memset") return {"memset", "kind memset"};
    const std::string base = lower(qualified_name(name));
    if (auto found = by_keyword(base, false, "the name")) return *found;
    const std::string whole = lower(name);
    if (whole != base)
        if (auto found = by_keyword(whole, true, "the full name")) return *found;
    return {"other", "no rule"};
}

}  // namespace amdahl::detail
