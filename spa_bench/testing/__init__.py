"""Test helpers shipped with spa-bench, so that users can test their own adapters offline.

`spa_bench.testing.openai_server` has a scripted OpenAI-compatible chat server.
"""
