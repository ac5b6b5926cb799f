"""Offline stand-in for @rules_java//java:defs.bzl: the native Java rules."""

java_binary = native.java_binary
java_import = native.java_import
java_library = native.java_library
java_runtime = native.java_runtime
java_toolchain = native.java_toolchain
