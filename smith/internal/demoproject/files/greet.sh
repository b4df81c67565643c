#!/bin/sh
# greet prints a greeting for the name given as $1.
echo "Helo, $1!"
