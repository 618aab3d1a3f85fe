"""The smallest useful minimcp server: python3 examples/quickstart.py (an MCP host starts it)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from minimcp import MCPServer

app = MCPServer("quickstart")


@app.tool()
def word_count(text: str) -> int:
    """Count the words in a text."""
    return len(text.split())


if __name__ == "__main__":
    app.run()
