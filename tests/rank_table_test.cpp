// detail::split_by_rank: one table of every rank into a table per rank, each line where it was in
// the file, the rank column gone, cells quoted again where they need it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "input/rank_table.hpp"

using amdahl::detail::split_by_rank;

TEST_CASE("rank table: a table per rank, lines kept in place, natural order", "[ranks][table]") {
    const std::string content =
        "\n"
        "name,Rank,time_ms\n"
        "\"gemm, fused\",10,3\n"
        "a,2,1\n"
        "\n"
        "b,10,\"4\"\n"
        "a,node-b,5\n";
    const auto split = split_by_rank(content, "all.csv", ',');
    REQUIRE(split);
    REQUIRE(split->size() == 3);
    CHECK((*split)[0].rank == "node-b");
    CHECK((*split)[0].content == "name,time_ms\na,5\n");
    CHECK((*split)[0].file_lines == std::vector<std::size_t>{2, 7});
    CHECK((*split)[1].rank == "rank2");
    CHECK((*split)[1].content == "name,time_ms\na,1\n");
    CHECK((*split)[1].file_lines == std::vector<std::size_t>{2, 4});
    CHECK((*split)[2].rank == "rank10");  // after rank2, as rank10.csv lists after rank2.csv
    CHECK((*split)[2].content == "name,time_ms\n\"gemm, fused\",3\nb,4\n");
    CHECK((*split)[2].file_lines == std::vector<std::size_t>{2, 3, 6});
    // A message about the rank's third line is about the file's sixth.
    CHECK(amdahl::detail::at_file_line("all.csv:3: phase 'b': bad", (*split)[2], "all.csv") ==
          "all.csv:6: phase 'b': bad");
    CHECK(amdahl::detail::at_file_line("all.csv: no phases", (*split)[2], "all.csv") == "all.csv: no phases");
    CHECK(amdahl::detail::at_file_line("all.csv:9: beyond", (*split)[2], "all.csv") == "all.csv:9: beyond");
    const amdahl::Error moved = amdahl::detail::at_file_line(amdahl::Error("all.csv:2", "bad"), (*split)[1], "all.csv");
    CHECK(moved.location() == "all.csv:4");
    CHECK(moved.message() == "bad");
}

TEST_CASE("rank table: a quoted line break keeps both lines", "[ranks][table]") {
    const auto split = split_by_rank("rank,name,time_ms\n0,\"two\nlines\",1\n1,b,2\n", "q.csv", ',');
    REQUIRE(split);
    CHECK((*split)[0].content == "name,time_ms\n\"two\nlines\",1\n");
    CHECK((*split)[0].file_lines == std::vector<std::size_t>{1, 2, 3});
    CHECK((*split)[1].file_lines == std::vector<std::size_t>{1, 4});
}

TEST_CASE("rank table: tabs, no rank column, a row without a rank", "[ranks][table]") {
    const auto tsv = split_by_rank("rank\tname\ttime_ms\n0\ta\t1\n", "all.tsv", '\t');
    REQUIRE(tsv);
    REQUIRE(tsv->size() == 1);
    CHECK(tsv->front().content == "name\ttime_ms\na\t1\n");
    CHECK(tsv->front().rank == "rank0");
    CHECK_FALSE(split_by_rank("name,ranking,time_ms\na,1,2\n", "x.csv", ','));
    CHECK_FALSE(split_by_rank("", "x.csv", ','));
    CHECK_THROWS_WITH(split_by_rank("rank,name,time_ms\n0,a,1\n,b,2\n", "x.csv", ','),
                      "x.csv:3: the row has no rank (column 'rank' of the header)");
    CHECK_THROWS_WITH(split_by_rank("name,time_ms,rank\na,1\n", "x.csv", ','),
                      "x.csv:2: the row has no rank (column 'rank' of the header)");
}

TEST_CASE("rank table: 03 is rank3, and -1, 1.0 and 1e0 are no ranks", "[ranks][table]") {
    const auto split = split_by_rank("rank,name,time_ms\n03,a,1\n3,b,2\n0,a,3\n00,b,4\n", "z.csv", ',');
    REQUIRE(split);
    REQUIRE(split->size() == 2);
    CHECK((*split)[0].rank == "rank0");
    CHECK((*split)[0].content == "name,time_ms\na,3\nb,4\n");
    CHECK((*split)[1].rank == "rank3");
    CHECK((*split)[1].content == "name,time_ms\na,1\nb,2\n");
    for (const char* rank : {"-1", "1.0", "1e0", "+2"}) {
        INFO(rank);
        CHECK_THROWS_WITH(
            split_by_rank(std::string("rank,name,time_ms\n") + rank + ",a,1\n", "z.csv", ','),
            std::string("z.csv:2: rank '") + rank + "' is not a whole number >= 0 (write 3 for rank3, or a name)");
    }
}
