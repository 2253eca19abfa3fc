// The kernel classes of --group-by class (docs/kernel-classes.md), on real kernel names from
// tests/data/profilers and the shared fixtures, the tricky ones included.
#include <catch2/catch.hpp>

#include "input/profilers/kernel_class.hpp"

using amdahl::detail::kernel_class;

namespace {

struct Expected {
    const char* name;
    const char* kind;
    const char* kernel_class;
    const char* rule;
};

}  // namespace

TEST_CASE("kernel classes: real kernel names, and the rule that put each in its class", "[kernel_class]") {
    const Expected table[] = {
        // gemm: cuBLAS, cutlass, Tensile, gemv
        {"ampere_sgemm_128x64_tn", "kernel", "gemm", "'gemm' in the name"},
        {"ampere_sgemm_32x32_sliced1x4_tn", "kernel", "gemm", "'gemm' in the name"},
        {"ampere_gcgemm_64x64_nt", "kernel", "gemm", "'gemm' in the name"},
        // cuBLAS on Hopper: no 'gemm' in the name (read as 'other' before).
        {"nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NNT", "kernel", "gemm", "'nvjet' in the name"},
        {"nvjet_hsh_256x128_64x4_2x1_v_bz_coopB_TNN", "kernel", "gemm", "'nvjet' in the name"},
        {"Cijk_Alik_Bljk_SB_MT64x64x8_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM1_AMAS3_ASE_ASGT_ASAE01_ASCE01", "kernel",
         "gemm", "'cijk_' in the name"},
        {"void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x1_tn_align8>(T1::Params)",
         "kernel", "gemm", "'cutlass' in the name"},
        {"std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, __nv_bfloat16, __nv_bfloat16, "
         "__nv_bfloat16, float, (bool)0, (bool)1, (bool)1, (bool)0, (int)6, (bool)0, cublasGemvParamsEx<int>>(T13)",
         "kernel", "gemm", "'gemv' in the name"},
        {"void gemmk1_kernel<int, float, (int)256, (int)5, (bool)1>(cublasGemvTensorStridedBatched<const float>)",
         "kernel", "gemm", "'gemm' in the name"},
        {"void cublasLt::splitKreduce_kernel<(int)32, (int)16, int, "
         "__nv_bfloat16>(cublasLt::cublasSplitKParams<float>)",
         "kernel", "gemm", "'cublas' in the name"},  // split-K reduction of a gemm: gemm
        {"void epilogue::impl::globalKernel<float, float, float, true, true>(int, int, long, float*, "
         "cublasLtEpilogue_t)",
         "kernel", "gemm", "'cublas' in the full name"},
        // attention: flash, fmha, softmax
        {"void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<(int)128, (int)64, (int)128, (int)4, (bool)0, "
         "(bool)0, cutlass::bfloat16_t>>(Flash_fwd_params)",
         "kernel", "attention", "'flash' in the name"},
        {"fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float, cutlass::arch::Sm80, "
         "true, 64, 64, 64, true, true>::Params)",
         "kernel", "attention", "'fmha' in the name"},
        {"void <unnamed>::softmax_warp_forward<float, float, float, (int)6, (bool)0, (bool)0>(T2 *, const T1 *, int, "
         "int, int, const bool *, int, bool)",
         "kernel", "attention", "'softmax' in the name"},
        {"cunn_SoftMaxForward", "kernel", "attention", "'softmax' in the name"},
        // communication before reduction: an AllReduce reduces too
        {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "kernel", "communication",
         "'nccl' in the name"},
        {"ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)", "kernel", "communication", "'nccl' in the name"},
        // norm
        {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, "
         "float const*, float const*, float*, float*, float*)",
         "kernel", "norm", "'layer_norm' in the name"},
        {"void at::native::batch_norm_collect_statistics_kernel<float, float, float, "
         "512>(at::GenericPackedTensorAccessor)",
         "kernel", "norm", "'batch_norm' in the name"},
        // conv: cudnn's implicit gemm is a convolution
        {"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_"
         "warpsize2x2x1_"
         "g1_tensor16x8x8_alignc4_execute_kernel_cudnn",
         "kernel", "conv", "'fprop' in the name"},
        {"cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1", "kernel", "conv", "'scudnn' in the name"},
        // reduction
        {"void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, at::native::MeanOps<float, "
         "float, "
         "float, float>, unsigned int, float, (int)4, (int)4>>(T3)",
         "kernel", "reduction", "'reduce' in the name"},
        {"triton_red_fused_native_layer_norm_0", "kernel", "norm", "'layer_norm' in the name"},
        {"triton_per_fused_sum_1", "kernel", "reduction", "'triton_per_' in the name"},
        // elementwise
        {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
         "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
         "kernel", "elementwise", "'elementwise' in the name"},
        {"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> "
         ">(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, "
         "at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, "
         "at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1})",
         "kernel", "elementwise", "'elementwise' in the name"},
        {"triton_poi_fused_add_cos_sin_0", "kernel", "elementwise", "'triton_poi_' in the name"},
        // copies and memsets, by kind or by name
        {"Memcpy HtoD (Pinned -> Device)", "copy", "memcpy", "kind copy"},
        {"Memset (Device)", "memset", "memset", "kind memset"},
        {"MEMORY_COPY_HOST_TO_DEVICE", "copy", "memcpy", "kind copy"},
        {"[CUDA memcpy Host-to-Device]", "", "memcpy", "'memcpy' in the name"},
        {"__amd_rocclr_fillBufferAligned.kd", "kernel", "memset", "'fillbuffer' in the name"},
        // other: nothing a class claims (and "convert" is no convolution)
        {"void at::native::bitonicSortKVInPlace<(int)-2, (int)-1, (int)16, (int)16, long, long>(at::cuda::detail::"
         "TensorInfo<T5, T8>, T8)",
         "kernel", "other", "no rule"},
        {"void laplacian_kernel<double>(double*, double const*, int, int, int, double, double, double, double) [clone "
         ".kd]",
         "kernel", "other", "no rule"},
        {"convert_fp16_to_fp32", "kernel", "other", "no rule"},
        // "reduce" in a parameter type is no reduction: only library names count past the base name
        {"void fft2d_r2c_32x32<float, false, 0u, false>(float2*, float const*, int, int, int, int, int, int, int, int, "
         "int, cudnn::reduced_divisor, bool, int2, int, int)",
         "kernel", "other", "no rule"},
    };
    for (const Expected& e : table) {
        INFO(e.name);
        const auto found = kernel_class(e.name, e.kind);
        CHECK(found.name == e.kernel_class);
        CHECK(found.rule == e.rule);
    }
}
