# Homebrew formula for nazm-mcp: the release binary for this machine.
#
# The version, the repository and each binary's SHA-256 are filled in from a
# release's SHA256SUMS by scripts/homebrew.ts (the release workflow attaches
# the filled formula to the release, for a tap):
#
#   deno run --allow-read scripts/homebrew.ts --version 0.1.0 \
#     --repository OWNER/NAME --checksums SHA256SUMS > nazm-mcp.rb
#
# Until then every sha256 below is zero, which no download matches.
class NazmMcp < Formula
  desc "Read-only MCP server: compiler-backed facts about one Nazm program"
  homepage "https://github.com/nazm-lang/nazm"
  version "0.1.0"

  on_macos do
    on_arm do
      url "https://github.com/nazm-lang/nazm/releases/download/v#{version}/nazm-mcp-aarch64-apple-darwin"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
    on_intel do
      url "https://github.com/nazm-lang/nazm/releases/download/v#{version}/nazm-mcp-x86_64-apple-darwin"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
  end

  on_linux do
    on_arm do
      url "https://github.com/nazm-lang/nazm/releases/download/v#{version}/nazm-mcp-aarch64-unknown-linux-gnu"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
    on_intel do
      url "https://github.com/nazm-lang/nazm/releases/download/v#{version}/nazm-mcp-x86_64-unknown-linux-gnu"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
  end

  def install
    # A release asset is the bare binary, named for its target.
    bin.install Dir["nazm-mcp-*"].first => "nazm-mcp"
  end

  test do
    assert_equal "nazm-mcp #{version}\n", shell_output("#{bin}/nazm-mcp --version")
    assert_match "nazm-mcp --root FILE", shell_output("#{bin}/nazm-mcp --help")
    # A missing root is a usage error: exit status 2, one line on stderr.
    assert_match "does not exist", shell_output("#{bin}/nazm-mcp --root #{testpath}/none.nz 2>&1", 2)
  end
end
