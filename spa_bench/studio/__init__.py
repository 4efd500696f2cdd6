"""spa-bench studio: one local web page over a phone - see it, act on it, inspect its elements and the
selectors a golden script should use (`spa-bench studio`)."""
