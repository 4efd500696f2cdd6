"""Running episodes: one episode on one device (`episode`), many in parallel (`scheduler`)."""
