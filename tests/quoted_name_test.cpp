// How messages quote names (src/model/quoted_name.cpp): whole up to 80 characters, else the first
// 48 and last 24 around an ellipsis, with the length.
#include <catch2/catch.hpp>

#include "model/quoted_name.hpp"

using namespace amdahl;

TEST_CASE("quoted_name quotes short names whole", "[quoted_name]") {
    CHECK(quoted_name("gemm_qkv") == "'gemm_qkv'");
    CHECK(quoted_name("") == "''");
    CHECK(quoted_name(std::string(80, 'a')) == "'" + std::string(80, 'a') + "'");
    // 80 characters of two bytes each are still 80 characters.
    std::string arrows;
    for (int i = 0; i < 80; ++i) arrows += "\xe2\x86\x92";
    CHECK(quoted_name(arrows) == "'" + arrows + "'");
}

TEST_CASE("quoted_name cuts long names to their start and end and says how long they are", "[quoted_name]") {
    const std::string name = std::string(48, 'h') + std::string(9'000, 'm') + std::string(24, 't');
    CHECK(quoted_name(name) ==
          "'" + std::string(48, 'h') + "\xe2\x80\xa6" + std::string(24, 't') + "' (9072 characters)");
    CHECK(quoted_name(std::string(81, 'a')) ==
          "'" + std::string(48, 'a') + "\xe2\x80\xa6" + std::string(24, 'a') + "' (81 characters)");
    // Cuts fall between UTF-8 sequences, and characters are counted, not bytes.
    std::string arrows;
    for (int i = 0; i < 100; ++i) arrows += "\xe2\x86\x92";
    std::string head, tail;
    for (int i = 0; i < 48; ++i) head += "\xe2\x86\x92";
    for (int i = 0; i < 24; ++i) tail += "\xe2\x86\x92";
    CHECK(quoted_name(arrows) == "'" + head + "\xe2\x80\xa6" + tail + "' (100 characters)");
    // A templated kernel name: its start and end are what tells it apart.
    const std::string kernel =
        "void cutlass::Kernel<cutlass::gemm::kernel::Gemm<" + std::string(700, 'x') + ">>(Params)";
    CHECK(quoted_name(kernel) ==
          "'void cutlass::Kernel<cutlass::gemm::kernel::Gemm\xe2\x80\xa6xxxxxxxxxxxxxx>>(Params)' (759 characters)");
}
