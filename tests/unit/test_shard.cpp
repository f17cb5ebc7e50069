// --shard K/N: parsing (errors name the flag and the range) and the selection, which must split the
// runner's (workload, backend, math) product into N parts that cover it exactly once.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "run/shard.hpp"

using kbench::InputError;
using kbench::parse_shard;
using kbench::Shard;

TEST_SUITE("shard") {
  TEST_CASE("shard: K/N parses, 1-based") {
    CHECK(parse_shard("1/3") == Shard{1, 3});
    CHECK(parse_shard("3/3") == Shard{3, 3});
    CHECK(parse_shard("1/1").whole());
    CHECK(parse_shard("10000/10000") == Shard{10000, 10000});
    CHECK(parse_shard("2/7").text() == "2/7");
  }

  TEST_CASE("shard: malformed or out of range is an error naming --shard and the range") {
    for (const char* bad : {"", "3", "0/3", "4/3", "1/0", "-1/3", "+1/3", "1/ 3", " 1/3", "1/3/", "a/b", "1.0/3",
                            "1/10001", "99999999999/3"}) {
      CAPTURE(bad);
      try {
        parse_shard(bad);
        FAIL("accepted");
      } catch (const InputError& error) {
        const std::string message = error.what();
        CHECK(message.starts_with("--shard: got '"));
        CHECK(message.find("expected K/N with N from 1 to 10000 and K from 1 to N") != std::string::npos);
      }
    }
    CHECK_THROWS_WITH_AS(parse_shard("4/3"), doctest::Contains("K must be an integer from 1 to N (3)"), InputError);
    CHECK_THROWS_WITH_AS(parse_shard("1/0"), doctest::Contains("N must be an integer from 1 to 10000"), InputError);
  }

  TEST_CASE("shard: the N shards partition the product exactly, in equal shares to within one item") {
    for (int count = 1; count <= 9; ++count)
      for (std::size_t items = 0; items <= 40; ++items) {
        CAPTURE(count);
        CAPTURE(items);
        std::vector<int> owners(items, 0);
        std::vector<std::size_t> sizes;
        for (int index = 1; index <= count; ++index) {
          std::size_t size = 0;
          for (std::size_t item = 0; item < items; ++item)
            if (Shard{index, count}.selects(item)) {
              ++owners[item];
              ++size;
            }
          sizes.push_back(size);
        }
        for (int owner : owners) CHECK(owner == 1);
        const auto [least, most] = std::minmax_element(sizes.begin(), sizes.end());
        CHECK(*most - *least <= 1);
      }
  }

  TEST_CASE("shard: items are numbered workload-major, then backend, then math, as the runner walks them") {
    std::vector<std::size_t> seen;
    for (std::size_t w = 0; w < 3; ++w)
      for (std::size_t b = 0; b < 2; ++b)
        for (std::size_t m = 0; m < 2; ++m) seen.push_back(kbench::shard_item(w, b, m, 2, 2));
    for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == i);
    // The same inputs split the same way, every time.
    CHECK(Shard{2, 3}.selects(kbench::shard_item(0, 0, 1, 2, 2)));
    CHECK(Shard{2, 3}.selects(kbench::shard_item(1, 0, 0, 2, 2)));
    CHECK_FALSE(Shard{2, 3}.selects(kbench::shard_item(1, 0, 1, 2, 2)));
  }
}
