//! Geometry helpers — shapes and their areas.

use std::collections::HashMap;
use std::fmt::{self, Display};
use crate::units::Meters as M;
use super::config::*;

mod units;

/// A point on the plane — (x, y) in metres 📐.
#[derive(Debug, Clone, Copy)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// Every shape has an area.
pub trait Shape {
    /// Area in square metres.
    fn area(&self) -> f64;
    fn name(&self) -> String {
        String::from("shape")
    }
}

/** The kinds of shape. */
pub enum Kind {
    Circle,
    Square,
}

// 日本語のコメント: a circle.
pub struct Circle {
    center: Point,
    radius: f64,
}

impl Circle {
    /// Builds a circle.
    pub fn new(center: Point, radius: f64) -> Self {
        Circle { center, radius }
    }

    fn diameter(&self) -> f64 {
        self.radius * 2.0
    }
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        std::f64::consts::PI * self.radius.powi(2)
    }
}

impl<T: Display> fmt::Display for Wrapper<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

pub struct Wrapper<T>(T);

type Table = HashMap<String, f64>;

const LIMIT: usize = 16;

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64 {
    let mut t: Table = HashMap::new();
    for s in shapes {
        t.insert(s.name(), s.area());
    }
    let c = Circle::new(Point { x: 0.0, y: 0.0 }, 1.0);
    println!("{}", c.diameter());
    t.values().sum::<f64>() + square!(2.0)
}

mod tests {
    use super::*;

    #[test]
    fn it_works() {
        assert_eq!(total_area(&[]), 4.0);
    }
}
