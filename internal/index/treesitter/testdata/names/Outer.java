package shop;

public class Outer {
    public Outer() {}

    void run() {
        Runnable r = new Runnable() {
            public void run() {}
        };
    }

    static class Inner {
        int size() { return 0; }

        class Deep {
            void go() {}
        }
    }

    interface Visitor {
        void visit(Outer o);
        default void done() {}
    }

    enum Mode {
        ON;
        boolean on() { return true; }
    }
}
