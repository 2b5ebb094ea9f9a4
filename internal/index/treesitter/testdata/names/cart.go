package shop

// Cart is defined here; Store in another file.
type Cart struct{ items []string }

func (c *Cart) Add(x string) { c.items = append(c.items, x) }

func (c Cart) Len() int { return len(c.items) }

func (s *Store[T]) Put(x T) {
	check := func() bool { return true }
	_ = check
}

func New() *Cart { return &Cart{} }
