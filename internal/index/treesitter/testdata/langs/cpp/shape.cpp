#include "shape.hpp"
#include <cmath>

namespace geo {

// 日本語: builds a circle.
Circle::Circle(double r) : r_(r) {}

/* The area — π r². */
double Circle::area() const {
    return M_PI * std::pow(r_, 2);
}

template <typename T>
T largest(const std::vector<T>& xs) {
    T best{};
    for (const auto& x : xs) best = std::max(best, x);
    return best;
}

enum class Color { Red, Green };

}  // namespace geo

int main() {
    geo::Circle c(2.0);
    auto* s = new geo::Circle(1.0);
    double a = c.area() + s->area();
    delete s;
    return largest<int>({1, 2}) + static_cast<int>(a);
}
