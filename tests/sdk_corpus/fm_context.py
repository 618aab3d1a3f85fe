"""A file indexer written for fastmcp: async tools with Context logging and progress."""

from fastmcp import Context, FastMCP

mcp = FastMCP("indexer")

FILES = {"a.txt": "alpha beta", "b.txt": "beta gamma", "c.txt": "gamma delta"}


@mcp.tool
async def index(ctx: Context, word: str) -> dict[str, list[str]]:
    """Which files contain a word."""
    await ctx.info(f"indexing for {word}")
    hits = []
    for done, (name, text) in enumerate(sorted(FILES.items()), 1):
        await ctx.report_progress(done, len(FILES))
        if word in text.split():
            hits.append(name)
    return {word: hits}


@mcp.tool
async def word_count(name: str, ctx: Context) -> int:
    """Words in one file."""
    await ctx.debug(f"counting {name}")
    if name not in FILES:
        raise ValueError(f"no file {name}")
    return len(FILES[name].split())


if __name__ == "__main__":
    mcp.run()
