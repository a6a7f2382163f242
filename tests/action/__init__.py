"""Tests of the GitHub Action (action.yml and action/), the workflow files and the pre-commit manifest."""
