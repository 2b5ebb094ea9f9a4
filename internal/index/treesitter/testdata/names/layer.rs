pub struct Span;

pub trait Layer {
    fn on_event(&self) {}
    fn enabled(&self) -> bool;
}

impl Span {
    pub fn new() -> Self { Span }
}

impl Layer for Span {
    fn on_event(&self) {
        fn helper() {}
        helper()
    }
    fn enabled(&self) -> bool { true }
}

impl<S> Layer for Filtered<S>
where
    S: Clone,
{
    fn enabled(&self) -> bool { true }
}

impl fmt::Debug for dyn Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }
}

mod tests {
    use super::*;

    fn make() -> Span { Span }

    impl Span {
        fn in_test(&self) {}
    }

    #[test]
    fn it_works() {}
}
