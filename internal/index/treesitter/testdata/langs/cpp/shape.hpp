#pragma once
#include <string>
#include <vector>

namespace geo {

/// A shape on the plane — abstract.
class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
    std::string name() const { return "shape"; }
};

template <typename T>
struct Box {
    T value;
    T get() const { return value; }
};

class Circle : public Shape {
public:
    explicit Circle(double r);
    double area() const override;
private:
    double r_;
};

}  // namespace geo
