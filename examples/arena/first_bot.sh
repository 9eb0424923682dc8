#!/bin/sh
# The smallest external bot (docs/ARENA.md): it answers every decision with the first legal
# action, index 0, and ignores the rest of the message.
#
#   meeple tournament classic --bots "standard,cmd:sh examples/arena/first_bot.sh"
while IFS= read -r line; do
  case "$line" in
    *'"type":"decision"'*) echo 0 ;;
    *'"type":"end"'*) exit 0 ;;
  esac
done
