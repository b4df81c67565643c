// Command smith is the Smith terminal coding agent.
package main
